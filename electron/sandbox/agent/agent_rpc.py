# Host calls from the sandbox (second part of the agent, see agent_channel.py): rpc() with its in-flight
# bounds, and the answers routed back to the event loop that awaits each.
class RpcError(RuntimeError):
    """The host refused an RPC, could not be reached, or the request was too large to send. `kind` is
    'denied' when a tool call was refused by policy or by a person."""
    kind = None


RpcError.__module__ = '_sandbar'  # tracebacks say _sandbar.RpcError, the name user code imports

_rpc_lock = threading.Lock()
_pending = {}  # request id -> (event loop, future, slot size) of a host call until its answer comes
_last_rpc_id = 0
_rpc_closed = False
_between_calls = False  # a session's sandbox after a call: host calls wait for no one, so they fail at once


class _Flow:
    """Host calls in flight, held to the host's bounds (calls, request bytes; the start frame sends them):
    excess calls wait here, in FIFO order, so code that uses this API never meets the host's refusal."""
    def __init__(self):
        self.calls, self.bytes, self.limit, self.waiters = 0, 0, (16, 8 << 20), collections.deque()

    def _take(self, size):  # under _rpc_lock; one call always fits when none is in flight
        if self.calls and (self.calls >= self.limit[0] or self.bytes + size > self.limit[1]):
            return False
        self.calls, self.bytes = self.calls + 1, self.bytes + size
        return True

    async def acquire(self, size):
        import asyncio  # already loaded: a coroutine runs only under a loop
        loop = asyncio.get_running_loop()
        with _rpc_lock:
            if not self.waiters and self._take(size):
                return
            waiter = (loop, loop.create_future(), size)
            self.waiters.append(waiter)
        try:
            await waiter[1]
        except BaseException:  # cancelled while waiting: give back the slot if it was granted meanwhile
            with _rpc_lock:
                granted = waiter not in self.waiters
                if not granted:
                    self.waiters.remove(waiter)
            if granted:
                self.release(size)
            raise

    def release(self, size):
        woken = []
        with _rpc_lock:
            self.calls, self.bytes = self.calls - 1, self.bytes - size
            while self.waiters and self._take(self.waiters[0][2]):
                woken.append(self.waiters.popleft())
        for loop, future, granted in woken:
            try:
                loop.call_soon_threadsafe(lambda f=future: f.done() or f.set_result(None))
            except RuntimeError:  # that loop is closed: nobody will use the slot
                self.release(granted)


_flow = _Flow()


async def rpc(payload):
    """Send `payload` (a dict) to the host and return its answer payload; raises RpcError on failure."""
    if not isinstance(payload, dict):
        raise TypeError('_sandbar.rpc payload must be a dict, not %s' % type(payload).__name__)
    if os.getpid() != AGENT_PID:
        raise RpcError('RPC is only available in the main sandbox process, not in a forked child')
    try:
        body = _encode(payload)[:-1]
    except (TypeError, ValueError) as exc:
        raise RpcError('RPC payload is not JSON-serializable: %s' % exc) from None
    # The running loop at call time, so this works under top-level await and inside the user's asyncio.run().
    import asyncio  # already loaded: a coroutine runs only under a loop
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    where = _calling_line()  # now, before any await: the caller's frames are still on the stack
    size = len(body) + len(where) + 64  # the frame around the body is a few dozen bytes
    await _flow.acquire(size)
    try:
        _send_rpc(body, where, loop, future, size)
    except BaseException:
        _flow.release(size)
        raise
    # The slot is given back when the answer comes (see _take_pending), also when the code stops waiting for
    # it: the host keeps serving the call until then, and a new call in its place would pass the host's bound.
    return await future


def _calling_line():
    """`,"where":{...}` naming the user's line that made this call (boot module _sandbar_code_line), or b''."""
    finder = getattr(sys.modules.get('_sandbar_code_line'), 'calling_line', None)
    try:
        where = finder() if finder is not None else None
        return b',"where":' + _encode(where)[:-1] if where else b''
    except Exception:  # only a description: never a reason for the call to fail
        return b''


def _send_rpc(body, where, loop, future, size):
    global _last_rpc_id
    with _rpc_lock:
        if _rpc_closed:
            raise RpcError('RPC channel closed')
        if _between_calls:
            raise RpcError('no call is running in this session: host calls are only served during a call')
        request_id = _last_rpc_id + 1
        frame = b'{"type":"rpc_request","id":%d,"payload":%s%s}\n' % (request_id, body, where)
        if len(frame) > MAX_FRAME_BYTES:
            raise RpcError('RPC request is %d bytes encoded, over the %d-byte frame limit'
                           % (len(frame), MAX_FRAME_BYTES))
        _last_rpc_id = request_id
        _pending[request_id] = (loop, future, size)  # registered before sending: the answer may come at once
    _write_frame(frame)


def _take_pending(request_ids=None):
    """Removes answered (or, with None, all) calls from _pending and gives their slots back."""
    with _rpc_lock:
        ids = list(_pending) if request_ids is None else [i for i in request_ids if i in _pending]
        entries = [_pending.pop(i) for i in ids]
    for _loop, _future, size in entries:
        _flow.release(size)
    return [(loop, future) for loop, future, _size in entries]


def _settle(entry, success, value):
    """From the stdin thread: complete an rpc() future on the loop that awaits it."""
    def settle():
        if future.done():
            pass  # user code cancelled the call meanwhile
        elif success:
            future.set_result(value)
        else:
            error = RpcError(value[0])
            error.kind = value[1]
            future.set_exception(error)
    loop, future = entry
    try:
        loop.call_soon_threadsafe(settle)
    except RuntimeError:
        pass  # that loop is closed: nobody awaits this answer any more


def _on_rpc_response(message):
    request_id = message.get('id')
    entries = _take_pending([request_id]) if type(request_id) is int else []
    if not entries:
        return  # unknown or already answered id: ignore
    entry = entries[0]
    success = message.get('success') is True
    failure = (str(message.get('error') or 'RPC failed'), message.get('kind') if message.get('kind') == 'denied' else None)
    _settle(entry, success, message.get('payload') if success else failure)




def fail_pending(why):
    """Fails every host call still waiting for its answer (a session's call ended; answers will not come), and
    every later one until the next call starts (see calls_resumed)."""
    global _between_calls
    with _rpc_lock:
        _between_calls = True
    for entry in _take_pending():
        _settle(entry, False, (why, None))


def calls_resumed():
    global _between_calls
    with _rpc_lock:
        _between_calls = False
