# Sandbar's in-container agent, exec'd by the bootstrap in electron/sandbox/bootstrap.ts with BOOT = the boot
# payload. It speaks newline-delimited JSON frames over private copies of the original stdin/stdout and gives
# user code fd 0 = /dev/null and fds 1/2 = pipes it forwards as stdout/stderr frames, so nothing user code
# writes can pass for a frame. Python 3.8+, stdlib only. It never returns: every path ends in os._exit.
import ast
import asyncio
import builtins
import codecs
import collections
import inspect
import json
import linecache
import os
import select
import signal
import sys
import threading
import time
import traceback
import types

SANDBOX_FILENAME = '<sandbox>'
BOOT_MODULE_FILENAME_PREFIX = '<module '  # tracebacks name boot module code '<module NAME>'
MAX_FRAME_BYTES = int(BOOT['maxFrameBytes'])  # noqa: F821 (BOOT comes from the bootstrap)
# One read of captured output becomes one frame; JSON can grow a byte to 6 (\u001b), so keep frames in bounds.
CAPTURE_READ_BYTES = max(1024, min(65536, (MAX_FRAME_BYTES - 64) // 6))
AGENT_PID = os.getpid()  # a fork of this process must never speak on the host channel

_send_lock = threading.Lock()
_out_fd = -1  # private copy of the original stdout: the frame channel to the host
_exit_sent = False


def _encode(obj):
    """One frame as bytes. allow_nan=False because NaN/Infinity are not JSON and would break the host's parser."""
    try:
        text = json.dumps(obj, ensure_ascii=False, separators=(',', ':'), allow_nan=False)
        return text.encode('utf-8') + b'\n'
    except UnicodeEncodeError:
        # Lone surrogates (possible in user RPC payloads) are not UTF-8; as \\ud800 escapes they still parse.
        return json.dumps(obj, separators=(',', ':'), allow_nan=False).encode('ascii') + b'\n'


def _write_frame(data, last=False):
    """Write one encoded frame whole. The lock keeps frames from interleaving; short writes are continued."""
    global _exit_sent
    with _send_lock:
        if _exit_sent:
            return  # nothing may follow the exit frame (a capture thread can outlive its join timeout)
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(_out_fd, view):]
        except OSError:
            os._exit(1)  # the host closed its end: nobody is listening any more
        _exit_sent = last


class _Capture(threading.Thread):
    """Owns the pipe behind fd 1 or 2 and forwards what arrives as stdout/stderr frames, in order."""

    def __init__(self, stream, target_fd):
        threading.Thread.__init__(self, name='sandbar-' + stream, daemon=True)
        self.stream = stream
        self.read_fd, write_fd = os.pipe()  # os.pipe fds are non-inheritable: children never hold the read end
        os.dup2(write_fd, target_fd)  # dup2 makes target_fd inheritable, so subprocess output lands here too
        os.close(write_fd)
        # Incremental, so a multi-byte character split across two reads is decoded whole.
        self.decoder = codecs.getincrementaldecoder('utf-8')('replace')
        self.lock = threading.Lock()
        self.done = False

    def run(self):
        chunk = os.read(self.read_fd, CAPTURE_READ_BYTES)
        while chunk:  # b'' = EOF: every copy of the write end is closed
            self.emit(chunk, False)
            chunk = os.read(self.read_fd, CAPTURE_READ_BYTES)
        self.emit(b'', True)

    def emit(self, chunk, final):
        """Forward one chunk; `final` also flushes half-decoded bytes and drops anything sent later."""
        with self.lock:
            if self.done:
                return
            text = self.decoder.decode(chunk, final)
            self.done = final
            if text:
                _write_frame(_encode({'type': self.stream, 'data': text}))


def _take_stdio():
    """Keep the real stdin/stdout for frames and give user code /dev/null plus two capture pipes."""
    global _out_fd
    in_fd = os.dup(0)  # os.dup copies are non-inheritable: subprocesses never see the frame channel
    _out_fd = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # input() raises EOFError at once; subprocesses read EOF instead of our frames
    os.close(devnull)
    captures = [_Capture('stdout', 1), _Capture('stderr', 2)]
    sys.stdin = sys.__stdin__ = open(0, 'r', encoding='utf-8', closefd=False)
    # Line-buffered (buffering=1) so each print reaches the host promptly although fds 1/2 are pipes.
    sys.stdout = sys.__stdout__ = open(1, 'w', encoding='utf-8', errors='backslashreplace', buffering=1, closefd=False)
    sys.stderr = sys.__stderr__ = open(2, 'w', encoding='utf-8', errors='backslashreplace', buffering=1, closefd=False)
    for capture in captures:
        capture.start()
    return in_fd, captures


class _Lines:
    """Newline-delimited JSON objects from the host, read straight from the fd (no line-length limit)."""

    def __init__(self, fd):
        self.fd = fd
        self.buf = bytearray()
        self.scanned = 0  # bytes of buf already known to hold no newline, so long lines are not rescanned

    def next_message(self):
        """The next JSON object, or None at EOF. Lines that are not JSON objects are skipped."""
        while True:
            line = self._next_line()
            if line is None:
                return None
            try:
                message = json.loads(line.decode('utf-8'))
            except ValueError:  # includes UnicodeDecodeError and JSONDecodeError
                continue
            if isinstance(message, dict):
                return message

    def _next_line(self):
        while True:
            end = self.buf.find(b'\n', self.scanned)
            if end >= 0:
                line = bytes(self.buf[:end])
                del self.buf[:end + 1]
                self.scanned = 0
                return line
            self.scanned = len(self.buf)
            chunk = os.read(self.fd, 65536)
            if not chunk:
                return None  # an unterminated last line is not a frame
            self.buf += chunk


class RpcError(RuntimeError):
    """The host refused an RPC, could not be reached, or the request was too large to send. `kind` is
    'denied' when a tool call was refused by policy or by a person."""
    kind = None


RpcError.__module__ = '_sandbar'  # tracebacks say _sandbar.RpcError, the name user code imports

_rpc_lock = threading.Lock()
_pending = {}  # request id -> (event loop, future) of an rpc() call waiting for its answer
_last_rpc_id = 0
_rpc_closed = False


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
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    where = _calling_line()  # now, before any await: the caller's frames are still on the stack
    size = len(body) + len(where) + 64  # the frame around the body is a few dozen bytes
    await _flow.acquire(size)
    try:
        return await _send_rpc(body, where, loop, future)
    finally:
        _flow.release(size)


def _calling_line():
    """`,"where":{...}` naming the user's line that made this call (boot module _sandbar_code_line), or b''."""
    finder = getattr(sys.modules.get('_sandbar_code_line'), 'calling_line', None)
    try:
        where = finder() if finder is not None else None
        return b',"where":' + _encode(where)[:-1] if where else b''
    except Exception:  # only a description: never a reason for the call to fail
        return b''


async def _send_rpc(body, where, loop, future):
    global _last_rpc_id
    with _rpc_lock:
        if _rpc_closed:
            raise RpcError('RPC channel closed')
        request_id = _last_rpc_id + 1
        frame = b'{"type":"rpc_request","id":%d,"payload":%s%s}\n' % (request_id, body, where)
        if len(frame) > MAX_FRAME_BYTES:
            raise RpcError('RPC request is %d bytes encoded, over the %d-byte frame limit'
                           % (len(frame), MAX_FRAME_BYTES))
        _last_rpc_id = request_id
        _pending[request_id] = (loop, future)  # registered before sending: the answer may come at once
    try:
        _write_frame(frame)
        return await future
    finally:
        with _rpc_lock:
            _pending.pop(request_id, None)


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
    with _rpc_lock:
        entry = _pending.pop(request_id, None) if type(request_id) is int else None
    if entry is None:
        return  # unknown, answered or cancelled id: ignore
    success = message.get('success') is True
    failure = (str(message.get('error') or 'RPC failed'), message.get('kind') if message.get('kind') == 'denied' else None)
    _settle(entry, success, message.get('payload') if success else failure)


def _serve_host(lines):
    """Background thread after start: route answers; EOF means the host is gone, so stop at once."""
    global _rpc_closed
    while True:
        message = lines.next_message()
        if message is None:
            break
        if message.get('type') == 'rpc_response':
            _on_rpc_response(message)
    with _rpc_lock:
        _rpc_closed = True
        orphans = list(_pending.values())
        _pending.clear()
    for entry in orphans:
        _settle(entry, False, ('RPC channel closed', None))
    os._exit(1)  # user code must not keep running (or holding the container) for nobody


def _make_sandbar_module():
    module = types.ModuleType('_sandbar', 'Bridge from sandboxed code to the Sandbar host.')
    rpc.__module__ = '_sandbar'
    module.__dict__.update(context={}, rpc=rpc, RpcError=RpcError, MAX_FRAME_BYTES=MAX_FRAME_BYTES)
    sys.modules['_sandbar'] = module
    return module


def _install_boot_modules(modules):
    """Host-provided pure-Python modules, in payload order, so later ones may import earlier ones."""
    for name, source in modules.items():
        filename = BOOT_MODULE_FILENAME_PREFIX + name + '>'
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        module = types.ModuleType(name)
        sys.modules[name] = module  # registered first, as import does, so circular imports resolve
        exec(compile(source, filename, 'exec', dont_inherit=True), module.__dict__)


def _hook(name, *args):
    """Calls `name` on each boot module that defines it, in install order (artifacts.py: on_boot/start/end)."""
    for module_name in BOOT.get('modules') or {}:  # noqa: F821
        getattr(sys.modules.get(module_name), name, lambda *_: None)(*args)


def _wait_for_start(lines):
    # Backstop for pooled containers: if the host vanished without closing stdin, end ourselves.
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(int(BOOT['idleTimeoutSec']))  # noqa: F821
    while True:
        message = lines.next_message()
        if message is None:
            os._exit(0)  # the host let us go before giving us work: nothing to report
        if message.get('type') == 'start':
            signal.alarm(0)
            return message


def _prebound_names(context):
    """Names pre-bound in the user's globals: the MCP API (mcp, runtime, mcp_servers, ...) when the host sent the
    _sandbar_mcp boot module, else none."""
    mcp_runtime = sys.modules.get('_sandbar_mcp')
    return mcp_runtime.prebound_names(context) if mcp_runtime is not None else {}


def _run_user_code(source, context, sandbar):
    """Run `source` as a fresh __main__ module and return the exit code Python itself would use."""
    sandbar.context = context
    layer = context.get('packages')
    if isinstance(layer, str) and layer.startswith('/opt/sandbar/layers/'):
        sys.path.insert(0, layer)  # the run's package layer (read-only), ahead of the image's own packages
    # Tracebacks read source lines from linecache; mtime None keeps checkcache() from dropping the entry.
    linecache.cache[SANDBOX_FILENAME] = (len(source), None, source.splitlines(True), SANDBOX_FILENAME)
    main = types.ModuleType('__main__')
    main.__builtins__ = builtins
    try:
        main.__dict__.update(_prebound_names(context))
    except Exception:  # a host bug (bad context or boot module): report it whole, run nothing
        _print_text('sandbar: could not set up the sandbox API\n' + traceback.format_exc())
        return 1
    # Installed as __main__ so `if __name__ == "__main__":` runs and pickle finds user functions by reference.
    sys.modules['__main__'] = main
    try:
        code = compile(source, SANDBOX_FILENAME, 'exec', ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
        if code.co_flags & inspect.CO_COROUTINE:
            asyncio.run(eval(code, main.__dict__))  # top-level await: the module body is a coroutine
        else:
            exec(code, main.__dict__)  # no loop running, so user code may call asyncio.run() itself
    except SystemExit as exc:
        return _exit_status(exc.code)
    except BaseException as exc:  # KeyboardInterrupt too: report it like any other uncaught exception
        _print_text(''.join(traceback.format_exception(type(exc), exc, _user_traceback(exc.__traceback__))))
        return 1
    return 0


def _exit_status(code):
    """What the interpreter would exit with for sys.exit(code)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF  # what the OS keeps of exit(n), e.g. -1 -> 255
    _print_text(str(code) + '\n')
    return 1


def _user_traceback(tb):
    """The part of `tb` that is the user's: from the first <sandbox> frame, and never back into the agent or a
    host-provided boot module (e.g. mcp.runtime raising MCPError: the message is what matters)."""
    while tb is not None and tb.tb_frame.f_code.co_filename != SANDBOX_FILENAME:
        tb = tb.tb_next  # skips this agent's frames and asyncio.run's machinery
    agent_filename = _user_traceback.__code__.co_filename
    entry = tb
    while entry is not None and entry.tb_next is not None:
        filename = entry.tb_next.tb_frame.f_code.co_filename
        if filename == agent_filename or filename.startswith(BOOT_MODULE_FILENAME_PREFIX):
            entry.tb_next = None  # e.g. rpc() raising RpcError: its internals are not the user's concern
        else:
            entry = entry.tb_next
    return tb


def _print_text(text):
    # To our own stderr wrapper: user code may have replaced or closed sys.stderr.
    try:
        _STDERR.write(text)
        _STDERR.flush()
    except (OSError, ValueError):
        pass


def _finish(code, captures):
    """Drain captured output, send the exit frame and end the process with `code`."""
    for stream in (sys.stdout, sys.stderr, _STDOUT, _STDERR):
        try:
            stream.flush()
        except Exception:  # user code may have closed or replaced them
            pass
    if os.getpid() != AGENT_PID:
        os._exit(code)  # a child from the user's os.fork() ran off the end of the code: it is not the agent
    # Dropping our pipe write ends lets the capture threads see EOF. A leftover child may still hold a copy,
    # so the wait is bounded; and user threads are not waited for at all (os._exit skips their join).
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    deadline = time.monotonic() + 0.5
    for capture in captures:
        capture.join(max(0.0, deadline - time.monotonic()))
        capture.emit(b'', True)  # a no-op if the thread got EOF; else whatever it sends later is dropped
    _write_frame(_encode({'type': 'exit', 'code': code}), last=True)
    os._exit(code)


def _main():
    global _STDOUT, _STDERR
    in_fd, captures = _take_stdio()
    _STDOUT, _STDERR = sys.stdout, sys.stderr
    sandbar = _make_sandbar_module()
    try:
        _install_boot_modules(BOOT.get('modules') or {})  # noqa: F821
        _hook('on_boot', BOOT, lambda frame: _write_frame(_encode(frame)))  # noqa: F821
    except BaseException:
        _print_text(traceback.format_exc())  # a broken boot module is a host bug: report it, never go ready
        _finish(1, captures)
    version = '%d.%d.%d' % tuple(sys.version_info[:3])
    _write_frame(_encode({'type': 'ready', 'python': version, 'pid': AGENT_PID}))
    lines = _Lines(in_fd)
    # Idle work (warm imports) stops at the next step once the start frame is waiting.
    _hook('on_idle', lambda: bool(lines.buf) or bool(select.select([in_fd], [], [], 0)[0]))
    start = _wait_for_start(lines)
    threading.Thread(target=_serve_host, args=(lines,), name='sandbar-host', daemon=True).start()
    source, context = start.get('code'), start.get('context')
    limits = start.get('rpcLimits')
    if isinstance(limits, list) and len(limits) == 2 and all(type(n) is int and n > 0 for n in limits):
        _flow.limit = tuple(limits)
    if not isinstance(source, str):
        _print_text('sandbar: the start frame has no code\n')
        _finish(1, captures)
    _hook('on_start', start)
    code = _run_user_code(source, context if isinstance(context, dict) else {}, sandbar)
    if os.getpid() == AGENT_PID:  # not in a child the code forked
        _hook('on_end')  # figures still open, files in /workspace/out, imports seen (each reports its failures)
    _finish(code, captures)


_main()
