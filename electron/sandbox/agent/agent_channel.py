# The agent's frame channel (first part of the agent; bootstrap.ts joins agent_channel.py, agent_relay.py,
# agent_rpc.py and agent.py into one source, exec'd by the bootstrap with BOOT = the boot payload). It reads
# newline-delimited JSON frames from a private copy of the original stdin and writes its own frames to the
# relay (agent_relay.py), the parent process that alone writes to the host. User code gets fd 0 = /dev/null
# and fds 1/2 = pipes the relay forwards as stdout/stderr frames, so nothing user code writes can pass for a
# frame. Python 3.8+, stdlib only.
import array
import builtins
import codecs
import collections
import json
import linecache
import os
import queue
import resource
import select
import signal
import socket
import sys
import threading
import time
import traceback
import types

SANDBOX_FILENAME = '<sandbox>'
# As literals, not from ast and inspect: importing those and asyncio at boot cost every sandbox ~30 ms of
# CPU for what most runs never use. asyncio is imported when a run awaits at top level (or by user code).
PYCF_ALLOW_TOP_LEVEL_AWAIT = 0x2000  # ast.PyCF_ALLOW_TOP_LEVEL_AWAIT (Python 3.8+)
CO_COROUTINE = 0x0080  # inspect.CO_COROUTINE
BOOT_MODULE_FILENAME_PREFIX = '<module '  # tracebacks name boot module code '<module NAME>'
MAX_FRAME_BYTES = int(BOOT['maxFrameBytes'])  # noqa: F821 (BOOT comes from the bootstrap)
# One read of captured output becomes one frame; JSON can grow a byte to 6 (\u001b), so keep frames in bounds.
CAPTURE_READ_BYTES = max(1024, min(65536, (MAX_FRAME_BYTES - 64) // 6))
AGENT_PID = os.getpid()  # the agent's pid (set after the relay forks it): a fork of it must never speak

_send_lock = threading.Lock()
_out_fd = -1  # the agent's end of the socket to the relay: its frame channel
_agent_sock = None
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
            return  # nothing may follow the exit frame (a user thread may still be sending)
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(_out_fd, view):]
        except OSError:
            os._exit(1)  # the relay is gone, and the host with it: nobody is listening any more
        _exit_sent = last


def _new_call_pipes():
    """Fresh pipes behind fds 1 and 2 for a session's next call. Their read ends go to the relay (with a blank
    line on the frame socket, so it has them before the exit frame that follows); dup2 drops our old write
    ends, so the relay sees the old pipes end and forwards everything this call wrote before its exit frame."""
    fds = [os.pipe(), os.pipe()]
    with _send_lock:
        _agent_sock.sendmsg([b'\n'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [r for r, _ in fds]))])
    for (read_fd, write_fd), target in zip(fds, (1, 2)):
        os.close(read_fd)
        os.dup2(write_fd, target)  # inheritable, so subprocess output lands here too
        os.close(write_fd)


SUBREAPER = False  # the relay adopts orphans, so it sees a checkpoint that became the agent end (issue 28)


def _become_subreaper():
    """PR_SET_CHILD_SUBREAPER for the relay; without it a session keeps no checkpoints."""
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0
    except Exception:  # no ctypes in the image, or the call refused
        return False


def _take_stdio():
    """Split in two: this process becomes the relay (agent_relay.py), which alone writes to the host; a forked
    child becomes the agent, which runs the code with fd 0 = /dev/null, fds 1/2 = pipes the relay reads, and its
    frames going through a socket to the relay. Output written before a crash is in those pipes, and the relay
    outlives the crash to forward it. Returns the child's private copy of the host's stdin."""
    global _out_fd, _agent_sock, AGENT_PID
    # No core files: a crashing sandbox must not hand its memory to the host's core handler.
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    global SUBREAPER
    SUBREAPER = _become_subreaper()  # before the fork: the agent needs to know too
    in_fd = os.dup(0)  # os.dup copies are non-inheritable: subprocesses never see the frame channel
    host_out = os.dup(1)
    pipes = [os.pipe(), os.pipe()]  # stdout, stderr
    relay_end, agent_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    child = os.fork()
    if child:
        agent_end.close()
        os.close(in_fd)
        for _, write_fd in pipes:
            os.close(write_fd)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1):
            os.dup2(devnull, fd)  # the relay speaks only through host_out
        os.close(devnull)
        _relay_main(child, relay_end, host_out, [read_fd for read_fd, _ in pipes])  # never returns
    AGENT_PID = os.getpid()
    relay_end.close()
    os.close(host_out)  # the agent has no way to the host but through the relay
    _agent_sock = agent_end
    _out_fd = agent_end.fileno()
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # input() raises EOFError at once; subprocesses read EOF instead of our frames
    os.close(devnull)
    for (read_fd, write_fd), target in zip(pipes, (1, 2)):
        os.close(read_fd)
        os.dup2(write_fd, target)
        os.close(write_fd)
    sys.stdin = sys.__stdin__ = open(0, 'r', encoding='utf-8', closefd=False)
    # Line-buffered (buffering=1) so each print reaches the host promptly although fds 1/2 are pipes.
    sys.stdout = sys.__stdout__ = open(1, 'w', encoding='utf-8', errors='backslashreplace', buffering=1, closefd=False)
    sys.stderr = sys.__stderr__ = open(2, 'w', encoding='utf-8', errors='backslashreplace', buffering=1, closefd=False)
    return in_fd


def _tell_relay(**fields):
    """A line for the relay alone (it never reaches the host): a call starts, or the host is gone."""
    _write_frame(_encode(dict({'type': '_relay'}, **fields)))


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


