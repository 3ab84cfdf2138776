# The agent's frame channel (first part of the agent; bootstrap.ts joins agent_channel.py, agent_rpc.py and
# agent.py into one source, exec'd by the bootstrap with BOOT = the boot payload). It speaks newline-delimited
# JSON frames over private copies of the original stdin/stdout and gives user code fd 0 = /dev/null and fds
# 1/2 = pipes it forwards as stdout/stderr frames, so nothing user code writes can pass for a frame.
# Python 3.8+, stdlib only.
import ast
import asyncio
import builtins
import codecs
import collections
import inspect
import json
import linecache
import os
import queue
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


def new_captures():
    """Fresh pipes behind fds 1 and 2 (not yet forwarding: start() each). Each call of a session gets its own,
    so the old ones reach EOF and everything the call wrote is forwarded before its exit frame."""
    return [_Capture('stdout', 1), _Capture('stderr', 2)]


def _take_stdio():
    """Keep the real stdin/stdout for frames and give user code /dev/null plus two capture pipes."""
    global _out_fd
    in_fd = os.dup(0)  # os.dup copies are non-inheritable: subprocesses never see the frame channel
    _out_fd = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # input() raises EOFError at once; subprocesses read EOF instead of our frames
    os.close(devnull)
    captures = new_captures()
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


