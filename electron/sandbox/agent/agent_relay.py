# The relay (second part of the agent, see agent_channel.py): the container's main process once the agent has
# forked. It alone writes to the host. It passes the agent's frames through whole, turns what arrives on the
# pipes behind the code's fds 1/2 into stdout/stderr frames, and, because it is not the process that runs the
# code, it outlives a segfault, abort() or os._exit(): it forwards what the code wrote before, then an exit
# frame that says how the process ended, and ends the same way. It also keeps each call's output within the
# host's cap: past `capBytes` a stream is counted, not sent (`output_cut` frames say how much was printed), and
# past `stopAfterBytes` the call is stopped.
DRAIN_SEC = 0.5  # after the end, how long a leftover child holding a pipe may keep the relay waiting
CUT_REPORT_SEC = 5.0  # how often a cut stream's count is sent while the code goes on printing
SPECIAL_PREFIXES = (b'{"type":"exit"', b'{"type":"_relay"')  # the lines the relay reads itself
SPECIAL_MAX_BYTES = 65536  # such lines are small; a longer one is passed through as it comes


class _Stream:
    """One of the code's output pipes, and what the relay did with it in this call."""

    def __init__(self, name, fd):
        self.name, self.fd = name, fd
        self.decoder = codecs.getincrementaldecoder('utf-8')('replace')
        self.sent = 0  # UTF-8 bytes forwarded in this call
        self.printed = 0  # bytes the code wrote in this call
        self.cut = False
        self.reported = 0.0

    def close(self):
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


class _Relay:
    def __init__(self, child, sock, out_fd, fds):
        self.child, self.sock, self.out_fd = child, sock, out_fd
        self.streams = [_Stream('stdout', fds[0]), _Stream('stderr', fds[1])]
        self.next_fds = None  # a session's next call's pipes, sent ahead of the exit frame
        self.reading = True  # False between a session's calls: output written then waits in the new pipes
        self.cap = None
        self.stop_after = None
        self.in_call = False
        self.buf = bytearray()  # the start of a line from the agent, not yet written
        self.passing = False  # in the middle of a line that is being passed through as it comes
        self.sock_open = True
        self.status = None  # the agent's wait status, once reaped
        self.wake_r = -1

    # ---- writing to the host ---------------------------------------------------------------------------

    def write(self, data):
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.out_fd, view):]
        except OSError:  # the host is gone: nobody is listening any more
            self.kill_child()
            os._exit(1)

    def send(self, frame):
        self.write(_encode(frame))

    # ---- the main loop -----------------------------------------------------------------------------------

    def run(self):
        self.wake_r, wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wakeup fd hears of it
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)  # the host ends containers with SIGKILL; the agent handles the rest
        self.reap()
        while True:
            watched = [self.wake_r] + ([self.sock] if self.sock_open else [])
            if self.reading and not self.passing:
                watched += [s.fd for s in self.streams if s.fd >= 0]
            ready = select.select(watched, [], [])[0]
            if self.wake_r in ready:
                try:
                    while os.read(self.wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
                self.reap()
            if self.sock_open and self.sock in ready:
                self.from_agent()  # first: a call's start (its cap) comes before anything the call prints
            for stream in self.streams if self.reading else []:
                if stream.fd >= 0 and stream.fd in ready and not self.passing:
                    self.read_stream(stream)
            if self.status is not None:
                self.agent_ended()  # never returns

    def reap(self):
        """Collects every exited child (the relay may be PID 1 and inherit orphans); keeps the agent's status."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid == self.child:
                self.status = status

    # ---- frames from the agent ---------------------------------------------------------------------------

    def from_agent(self):
        try:
            data, ancillary, _flags, _addr = self.sock.recvmsg(262144, socket.CMSG_SPACE(8 * array.array('i').itemsize))
        except BlockingIOError:
            return
        except OSError:
            data, ancillary = b'', []
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds = array.array('i')
                fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
                self.take_fds(list(fds))
        if not data:
            self.sock_open = False  # the agent is exiting; its status follows
            return
        self.agent_bytes(data)

    def take_fds(self, fds):
        if self.next_fds is not None or len(fds) != 2:  # only the agent's own pair, once per call
            for fd in fds:
                os.close(fd)
            return
        self.next_fds = fds

    def agent_bytes(self, data):
        start = 0
        view = memoryview(data)
        while start < len(data):
            newline = data.find(b'\n', start)
            end = len(data) if newline < 0 else newline + 1
            if self.passing:
                self.write(view[start:end])
                self.passing = newline < 0
            else:
                self.buf += view[start:end]
                if newline >= 0:
                    line, self.buf = bytes(self.buf), bytearray()
                    self.line(line)
                elif not self.could_be_special(self.buf):
                    self.write(self.buf)  # an ordinary frame (a large file chunk): no need to hold it here
                    self.buf, self.passing = bytearray(), True
            start = end

    @staticmethod
    def could_be_special(head):
        """Whether a line starting with `head` may still be one the relay reads itself."""
        return len(head) <= SPECIAL_MAX_BYTES and any(bytes(head[:len(p)]) == p[:len(head)] for p in SPECIAL_PREFIXES)

    def line(self, line):
        if not line.strip():
            return  # the blank line that carried a session's new pipes
        small = len(line) <= SPECIAL_MAX_BYTES
        if small and line.startswith(b'{"type":"_relay"'):
            self.control(line)
        elif small and line.startswith(b'{"type":"exit"'):
            self.exit_frame(line)
        else:
            self.write(line)

    def control(self, line):
        try:
            message = json.loads(line.decode('utf-8'))
        except ValueError:
            return
        if message.get('hostGone'):
            self.in_call = False  # the host closed stdin: nobody would read an exit frame
        agent = message.get('agent')
        if type(agent) is int and agent > 1:
            self.new_agent(agent)
        call = message.get('call')
        if isinstance(call, dict):
            whole = lambda v: v if type(v) is int and v > 0 else None  # noqa: E731
            self.cap, self.stop_after = whole(call.get('capBytes')), whole(call.get('stopAfterBytes'))
            for stream in self.streams:
                stream.sent = stream.printed = 0
                stream.cut = False
            self.in_call = self.reading = True

    def new_agent(self, pid):
        """A checkpoint was returned to and is the agent now (agent_checkpoints.py): follow its pid and its pipes.
        The old agent's end, if already reaped, is not this one's."""
        self.child, self.status = pid, None
        if self.next_fds is not None:
            for stream in self.streams:
                stream.close()
            self.streams = [_Stream(stream.name, fd) for stream, fd in zip(self.streams, self.next_fds)]
            self.next_fds = None

    def exit_frame(self, line):
        """The agent's own exit frame: first everything the call wrote, then the frame."""
        self.drain()
        self.report_cuts()
        self.write(line)
        self.in_call = False
        try:
            session = json.loads(line.decode('utf-8')).get('session')
        except (ValueError, AttributeError):
            session = None
        if session == 'open':
            fds = self.next_fds or [-1, -1]
            self.streams = [_Stream(stream.name, fd) for stream, fd in zip(self.streams, fds)]
            self.next_fds, self.reading = None, False
            return
        self.wait_child(2.0)
        self.mirror()

    # ---- the code's output -------------------------------------------------------------------------------

    def read_stream(self, stream):
        chunk = os.read(stream.fd, CAPTURE_READ_BYTES)
        if not chunk:
            self.forward(stream, b'', True)
            stream.close()
            return
        self.forward(stream, chunk, False)

    def forward(self, stream, chunk, final):
        stream.printed += len(chunk)
        text = stream.decoder.decode(chunk, final)
        if text and not stream.cut:
            data = text.encode('utf-8')
            if self.cap is not None and stream.sent + len(data) > self.cap:
                data = data[:self.cap - stream.sent]
                text = data.decode('utf-8', 'ignore')  # a character cut in two is left out whole
                stream.cut = True
            if text:
                self.send({'type': stream.name, 'data': text})
                stream.sent += len(text.encode('utf-8'))
            if stream.cut:
                self.report_cut(stream)
        elif stream.cut and time.monotonic() - stream.reported >= CUT_REPORT_SEC:
            self.report_cut(stream)
        if self.stop_after is not None and stream.printed > self.stop_after:
            self.stop_for_output(stream)

    def report_cut(self, stream):
        stream.reported = time.monotonic()
        self.send({'type': 'output_cut', 'stream': stream.name, 'printed': stream.printed})

    def report_cuts(self):
        for stream in self.streams:
            if stream.cut:
                self.report_cut(stream)

    def drain(self):
        """What the pipes still hold, up to their end or DRAIN_SEC (a leftover child may keep one open)."""
        deadline = time.monotonic() + DRAIN_SEC
        while True:
            open_fds = [s.fd for s in self.streams if s.fd >= 0]
            left = deadline - time.monotonic()
            if not open_fds or left <= 0:
                break
            for fd in select.select(open_fds, [], [], left)[0]:
                self.read_stream(next(s for s in self.streams if s.fd == fd))
        for stream in self.streams:
            if stream.fd >= 0:
                self.forward(stream, b'', True)
                stream.close()  # whatever comes later belongs to nobody

    # ---- how the agent ended -----------------------------------------------------------------------------

    def agent_ended(self):
        """The agent is gone. If it said goodbye, its exit frame is still on the socket; else it crashed or left
        with os._exit(): forward what it wrote, then say so."""
        self.sock.setblocking(False)
        while self.sock_open:
            self.from_agent()  # may reach its exit frame, which ends the relay
            if self.sock_open and not select.select([self.sock], [], [], 0)[0]:
                break
        if self.status is None:
            self.sock.setblocking(True)
            return  # what was left on the socket named a new agent (a checkpoint returned to): it goes on
        if self.passing:
            self.write(b'\n')  # the frame it was writing ends here, incomplete: the host reads it as text
            self.passing = False
        self.buf = bytearray()
        self.drain()
        if self.in_call:
            self.report_cuts()
            status = self.status
            if os.WIFSIGNALED(status):
                sig = os.WTERMSIG(status)
                frame = {'type': 'exit', 'code': 128 + sig, 'abrupt': _signal_name(sig)}
            else:
                frame = {'type': 'exit', 'code': os.WEXITSTATUS(status), 'abrupt': 'exit'}
            self.send(frame)
        self.mirror()

    def stop_for_output(self, stream):
        """The code went on printing far past the cap: the call is stopped here, in the sandbox."""
        self.kill_child()
        self.wait_child(5.0)
        for s in self.streams:
            s.close()
        self.report_cuts()
        self.send({'type': 'exit', 'code': 137, 'stopped': stream.name})
        self.mirror()

    def kill_child(self):
        try:
            os.kill(self.child, signal.SIGKILL)
        except OSError:
            pass

    def wait_child(self, timeout):
        deadline = time.monotonic() + timeout
        while self.status is None:
            self.reap()
            if self.status is not None:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill_child()
                try:
                    _pid, self.status = os.waitpid(self.child, 0)
                except ChildProcessError:
                    self.status = 0
                return
            select.select([self.wake_r], [], [], min(left, 0.05))

    def mirror(self):
        """End the way the agent ended, so the container's exit status is what it always was."""
        status = self.status if self.status is not None else 0
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            try:
                signal.signal(sig, signal.SIG_DFL)  # SIGKILL has no handler to reset
            except (OSError, ValueError):
                pass
            os.kill(os.getpid(), sig)  # ignored if the relay is PID 1, hence the fallback
            os._exit(128 + sig)
        os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _signal_name(sig):
    try:
        return signal.Signals(sig).name
    except ValueError:
        return 'SIG%d' % sig


def _relay_main(child, sock, out_fd, fds):
    try:
        _Relay(child, sock, out_fd, fds).run()
    except BaseException:  # a relay bug: say so where the host shows the runtime's messages, and stop
        try:
            os.write(2, ('sandbar relay: ' + traceback.format_exc()).encode('utf-8', 'replace'))
        finally:
            try:
                os.kill(child, signal.SIGKILL)
            finally:
                os._exit(1)
