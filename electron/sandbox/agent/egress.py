# The sandbox's end of egress through the host (issue 26), a boot module (_sandbar_egress). The container has
# no network but loopback; when the start frame carries `egress`, a listener on 127.0.0.1 stands in for the
# proxy. Each connection to it becomes frames on the agent's channel (egress_open, egress_data in base64,
# egress_end, egress_close, each with the connection's id) and the host's egress proxy decides, injects and
# records; the host's frames for it come back here (on_egress, from the agent's host thread) into the socket.
# The code sees the proxy variables, a CA bundle with the instance's CA, and a placeholder per secret: never a
# secret's value, which stays on the host. One selector thread does all socket work; stdlib only.
import base64
import collections
import os
import selectors
import socket
import tempfile
import threading

CHUNK = 48 * 1024  # egress-tunnel.ts EGRESS_CHUNK_BYTES: a data frame's payload before base64
WINDOW = 1024 * 1024  # egress-tunnel.ts EGRESS_WINDOW_BYTES: sent and not yet acknowledged, per connection
SYSTEM_CAS = ('/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem')
PROXY_VARS = ('HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy')
CA_VARS = ('SSL_CERT_FILE', 'REQUESTS_CA_BUNDLE')

_send = None  # the agent's frame writer (on_boot)
_gate = None  # this process's listener and connections, or None while egress is off
_saved = {}  # each variable this module changed -> its value before (None: unset), restored when egress goes off
_bundle_dir = None  # made once per sandbox in its own tmpfs (/tmp)


def on_boot(_boot, send):
    global _send
    _send = send


class _Conn:
    __slots__ = ('sock', 'out', 'host_ended', 'we_ended', 'shut', 'registered', 'unacked')

    def __init__(self, sock):
        self.sock, self.out, self.unacked = sock, bytearray(), 0
        self.host_ended = self.we_ended = self.shut = False
        self.registered = True


class _Gate:
    """The listener and its connections, driven by one thread; host frames arrive through `inbox`."""

    def __init__(self, listener=None):
        if listener is None:
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.bind(('127.0.0.1', 0))
            listener.listen(128)
            listener.setblocking(False)
        self.listener = listener
        self.port = self.listener.getsockname()[1]
        self.wake_r, self.wake_w = socket.socketpair()
        self.wake_r.setblocking(False)
        self.inbox = collections.deque()
        self.conns = {}
        self.next_id = 1
        self.stopped = False
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.listener, selectors.EVENT_READ, 'listen')
        self.sel.register(self.wake_r, selectors.EVENT_READ, 'wake')
        self.thread = threading.Thread(target=self.loop, name='sandbar-egress', daemon=True)
        self.thread.start()

    def post(self, message):
        self.inbox.append(message)
        try:
            self.wake_w.send(b'.')
        except OSError:  # the wake pipe is full: the loop is already due to run
            pass

    def loop(self):
        while not self.stopped:
            for key, events in self.sel.select():
                try:
                    if key.data == 'listen':
                        self.accept()
                    elif key.data == 'wake':
                        self.drain_inbox()
                    else:
                        if events & selectors.EVENT_WRITE:
                            self.flush(key.data)
                        if events & selectors.EVENT_READ:
                            self.read(key.data)
                except (OSError, ValueError, KeyError):  # one broken connection must not end egress for the run
                    if isinstance(key.data, int):
                        self.close(key.data, tell=True)

    def accept(self):
        try:
            sock, _ = self.listener.accept()
        except OSError:
            return
        sock.setblocking(False)
        # The host's answers come in pieces (headers, body): Nagle would hold the second for the client's delayed ACK.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        cid, self.next_id = self.next_id, self.next_id + 1
        self.conns[cid] = _Conn(sock)
        self.sel.register(sock, selectors.EVENT_READ, cid)
        _send({'type': 'egress_open', 'id': cid})

    def interest(self, cid):
        """Read while the code may still send, write while bytes wait; neither: out of the selector."""
        conn = self.conns[cid]
        # Reading stops while the host has not taken WINDOW bytes: a slow upstream slows the code's sends.
        reading = not conn.we_ended and conn.unacked < WINDOW
        events = (selectors.EVENT_READ if reading else 0) | (selectors.EVENT_WRITE if conn.out else 0)
        if events and conn.registered:
            self.sel.modify(conn.sock, events, cid)
        elif events:
            self.sel.register(conn.sock, events, cid)
        elif conn.registered:
            self.sel.unregister(conn.sock)
        conn.registered = bool(events)

    def read(self, cid):
        conn = self.conns.get(cid)
        if conn is None or conn.we_ended:
            return
        try:
            data = conn.sock.recv(CHUNK)
        except BlockingIOError:
            return
        except OSError:
            return self.close(cid, tell=True)
        if data:
            conn.unacked += len(data)
            _send({'type': 'egress_data', 'id': cid, 'data': base64.b64encode(data).decode('ascii')})
            if conn.unacked >= WINDOW:
                self.interest(cid)
            return
        conn.we_ended = True
        _send({'type': 'egress_end', 'id': cid})
        self.after_end(cid)

    def flush(self, cid):
        conn = self.conns.get(cid)
        if conn is None:
            return
        try:
            sent = conn.sock.send(conn.out)
        except BlockingIOError:
            return
        except OSError:
            return self.close(cid, tell=True)
        del conn.out[:sent]
        self.after_end(cid)

    def after_end(self, cid):
        """After bytes moved or a side ended: pass the host's end on once flushed; both ends done: close."""
        conn = self.conns.get(cid)
        if conn is None:
            return
        if conn.host_ended and not conn.out and not conn.shut:
            conn.shut = True
            try:
                conn.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        if conn.shut and conn.we_ended:
            return self.close(cid, tell=True)
        self.interest(cid)

    def close(self, cid, tell):
        conn = self.conns.pop(cid, None)
        if conn is None:
            return
        if conn.registered:
            try:
                self.sel.unregister(conn.sock)
            except (KeyError, ValueError):
                pass
        conn.sock.close()
        if tell:
            _send({'type': 'egress_close', 'id': cid})

    def drain_inbox(self):
        try:
            while self.wake_r.recv(4096):
                pass
        except OSError:
            pass
        while self.inbox:
            message = self.inbox.popleft()
            kind, cid = message.get('type'), message.get('id')
            conn = self.conns.get(cid)
            if kind == 'egress_stop':
                return self.shutdown()
            if conn is None:
                continue
            if kind == 'egress_data' and isinstance(message.get('data'), str):
                try:
                    conn.out += base64.b64decode(message['data'])
                except ValueError:
                    continue
                self.flush(cid)
            elif kind == 'egress_ack' and type(message.get('bytes')) is int:
                conn.unacked = max(0, conn.unacked - message['bytes'])
                self.interest(cid)
            elif kind == 'egress_end':
                conn.host_ended = True
                self.after_end(cid)
            elif kind == 'egress_close':
                if conn.out:  # the host's last bytes (a refusal's body) go out first, as far as they fit
                    try:
                        conn.sock.send(conn.out)
                    except OSError:
                        pass
                self.close(cid, tell=False)

    def shutdown(self):
        self.stopped = True
        for cid in list(self.conns):
            self.close(cid, tell=False)
        for sock in (self.listener, self.wake_r, self.wake_w):
            sock.close()
        self.sel.close()


def on_egress(message):
    """A host frame for a connection (from the agent's host thread)."""
    if _gate is not None and not _gate.stopped:
        _gate.post(message)


def _bundle(ca_pem):
    """System CAs plus the instance's CA, in the container's own tmpfs; the path, or None if it cannot be written."""
    global _bundle_dir
    system = ''
    for path in SYSTEM_CAS:
        try:
            with open(path) as f:
                system = f.read()
            break
        except OSError:
            continue
    try:
        if _bundle_dir is None or not os.path.isdir(_bundle_dir):
            _bundle_dir = tempfile.mkdtemp(prefix='sandbar-egress-')
        path = os.path.join(_bundle_dir, 'ca-bundle.pem')
        with open(path, 'w') as f:
            f.write(system.rstrip('\n') + '\n' + ca_pem if system else ca_pem)
        return path
    except OSError:
        return None


def _set_env(values, dropped=()):
    """Sets `values` and removes `dropped`; what was there before the first change comes back once egress is off."""
    for name in list(_saved):
        if name not in values and name not in dropped:
            before = _saved.pop(name)
            if before is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = before
    for name in list(values) + list(dropped):
        if name not in _saved:
            _saved[name] = os.environ.get(name)
    for name in dropped:
        os.environ.pop(name, None)
    os.environ.update(values)


def on_start(start):
    """Each call: egress on (listener up, variables set) or off (listener gone, variables taken away)."""
    global _gate
    egress = start.get('egress')
    if not isinstance(egress, dict):
        if _gate is not None and _gate.thread.is_alive():
            _gate.post({'type': 'egress_stop'})
            _gate.thread.join(2)  # the listener is closed before the code runs
        elif _gate is not None:
            _gate.shutdown()  # a checkpoint returned to: no thread to ask
        _gate = None
        _set_env({})
        return
    if _gate is None:
        _gate = _Gate()
    elif not _gate.thread.is_alive():
        # A checkpoint returned to (a fork): the thread is gone, the listener is not. The same port goes on
        # (urllib's cached opener and the code's own clients keep the proxy address they read); the
        # connections the old agent had are its, and end here.
        old = _gate
        for conn in old.conns.values():
            conn.sock.close()
        for sock in (old.wake_r, old.wake_w):
            sock.close()
        old.sel.close()
        _gate = _Gate(old.listener)
    url = 'http://127.0.0.1:%d' % _gate.port
    values = dict.fromkeys(PROXY_VARS, url)
    ca = egress.get('caPem')
    bundle = _bundle(ca) if isinstance(ca, str) and ca else None
    if bundle:
        values.update(dict.fromkeys(CA_VARS, bundle))
    placeholders = egress.get('placeholders')
    if isinstance(placeholders, dict):
        values.update({k: v for k, v in placeholders.items() if isinstance(k, str) and isinstance(v, str)})
    _set_env(values, dropped=('NO_PROXY', 'no_proxy', 'ALL_PROXY', 'all_proxy'))  # every destination goes through the proxy
