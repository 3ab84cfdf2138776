# Runs pip inside a package helper container that has no network. pip talks to 127.0.0.1:PORT, and this
# script carries each of those TCP connections over its own stdin/stdout to Sandbar's index proxy on the
# host: the container never reaches anything else. First stdin line: {"pip": base64 wheel, "args": [...]}.
# Output frames (one JSON object per line): open/data/close for the tunnel, then done with pip's exit code,
# its output tail and (for a resolution) the JSON report. argv[1]: the helper's lifetime in seconds.
import base64, json, os, socket, subprocess, sys, threading

_out_lock = threading.Lock()
_conns = {}


def send(obj):
    line = (json.dumps(obj, separators=(',', ':')) + '\n').encode()
    with _out_lock:
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()


def pump_out(cid, conn):
    try:
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            send({'t': 'data', 'c': cid, 'd': base64.b64encode(chunk).decode()})
    except OSError:
        pass
    send({'t': 'close', 'c': cid})


def accept(listener):
    cid = 0
    while True:
        conn, _ = listener.accept()
        cid += 1
        _conns[cid] = conn
        send({'t': 'open', 'c': cid})
        threading.Thread(target=pump_out, args=(cid, conn), daemon=True).start()


def pump_in(stdin):
    for line in stdin:
        msg = json.loads(line)
        conn = _conns.get(msg.get('c'))
        if conn is None:
            continue
        try:
            if msg['t'] == 'data':
                conn.sendall(base64.b64decode(msg['d']))
            elif msg['t'] == 'close':
                conn.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def _lifetime():
    # The helper's own end: after argv[1] seconds the whole container goes (PID 1 exits), whatever the
    # host is doing, even if it is gone.
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    timer = threading.Timer(seconds, lambda: os._exit(124))
    timer.daemon = True
    timer.start()


def main():
    _lifetime()
    stdin = sys.stdin.buffer
    boot = json.loads(stdin.readline())
    pip = '/tmp/pip.whl'
    with open(pip, 'wb') as f:
        f.write(base64.b64decode(boot['pip']))
    listener = socket.socket()
    listener.bind(('127.0.0.1', 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    threading.Thread(target=accept, args=(listener,), daemon=True).start()
    threading.Thread(target=pump_in, args=(stdin,), daemon=True).start()
    args = [a.replace('{INDEX}', 'http://127.0.0.1:%d/simple/' % port) for a in boot['args']]
    env = dict(os.environ, HOME='/tmp', PIP_NO_COLOR='1', PIP_PROGRESS_BAR='off', PYTHONDONTWRITEBYTECODE='1')
    proc = subprocess.run([sys.executable, pip + '/pip'] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    output = proc.stdout.decode('utf-8', 'replace')
    report = None
    if os.path.exists('/tmp/report.json'):
        with open('/tmp/report.json') as f:
            report = json.load(f)
    layer = boot.get('tarFrom')
    if proc.returncode == 0 and layer:
        # The installed tree goes out as a tar stream in frames: nothing in the container is writable by
        # the host or readable from it any other way.
        import tarfile
        with tarfile.open(fileobj=_TarFrames(), mode='w|') as tar:
            tar.add(layer, arcname='.')
    send({'t': 'done', 'code': proc.returncode, 'output': output[-8000:], 'report': report})


class _TarFrames:
    def write(self, data):
        for i in range(0, len(data), 1 << 20):
            send({'t': 'tar', 'd': base64.b64encode(data[i:i + (1 << 20)]).decode()})
        return len(data)

    def close(self):
        pass


main()
