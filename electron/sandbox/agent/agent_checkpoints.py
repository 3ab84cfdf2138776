# Session checkpoints (issue 28; part of the agent, joined after agent_rpc.py). After a session call the agent
# forks: the child, blocked on a pipe of its own, is the checkpoint (the interpreter as the call left it, its
# pages shared copy-on-write), and /workspace is copied beside it under CHECKPOINT_DIR (unchanged files are hard
# links to the previous copy, which nothing writes to). A return to call n writes the start frame down that
# checkpoint's pipe; the checkpoint tells the relay it is now the agent, ends the one that woke it, forks a new
# copy of itself (so n can be returned to again) and runs the call. Threads do not survive a fork: a return
# runs without the threads the code had started (the exit frame says when any were running).
import shutil
import stat
import warnings

CHECKPOINT_DIR = '/tmp/.sandbar-checkpoints'
MEMORY_SHARE = 0.7  # past this share of the memory limit, the oldest checkpoints go (and the result says so)
_checkpoints = collections.OrderedDict()  # call -> (pid, write end of its pipe), oldest first
_ckpt_dropped = []  # calls whose checkpoints went since the last report


def _ckpt_path(call):
    return os.path.join(CHECKPOINT_DIR, str(call))


def _snapshot_workspace(call):
    """Copies /workspace to CHECKPOINT_DIR/<call>; a file unchanged since the newest copy is a hard link to it."""
    target = _ckpt_path(call)
    shutil.rmtree(target, ignore_errors=True)
    previous = _ckpt_path(next(reversed(_checkpoints))) if _checkpoints else None
    os.makedirs(target, mode=0o700)
    for root, dirs, files in os.walk('/workspace'):
        rel = os.path.relpath(root, '/workspace')
        here = os.path.normpath(os.path.join(target, rel))
        for name in dirs:
            source = os.path.join(root, name)
            if os.path.islink(source):
                os.symlink(os.readlink(source), os.path.join(here, name))
            else:
                os.mkdir(os.path.join(here, name))
        for name in files:
            source, dest = os.path.join(root, name), os.path.join(here, name)
            try:
                if os.path.islink(source):
                    os.symlink(os.readlink(source), dest)
                    continue
                st = os.stat(source)
                if previous is not None:
                    old = os.path.normpath(os.path.join(previous, rel, name))
                    try:
                        pst = os.stat(old)
                        if pst.st_size == st.st_size and pst.st_mtime_ns == st.st_mtime_ns:
                            os.link(old, dest)
                            continue
                    except OSError:
                        pass
                shutil.copy2(source, dest)
            except OSError:
                pass  # a file that vanished or cannot be read is not in the copy


def _same_file(a, b):
    try:
        sa, sb = os.lstat(a), os.lstat(b)
    except OSError:
        return False
    return stat.S_ISREG(sa.st_mode) and stat.S_ISREG(sb.st_mode) and (sa.st_size, sa.st_mtime_ns) == (sb.st_size, sb.st_mtime_ns)


def _restore_workspace(call):
    """Makes /workspace what the copy of `call` holds, rewriting only what differs (same size and mtime: kept)."""
    source = _ckpt_path(call)
    for root, dirs, files in os.walk('/workspace', topdown=True):
        rel = os.path.relpath(root, '/workspace')
        for name in list(dirs) + files:
            path, kept = os.path.join(root, name), os.path.normpath(os.path.join(source, rel, name))
            if name in dirs and os.path.isdir(kept) and not os.path.islink(kept) and not os.path.islink(path):
                continue  # walked into next
            if name in files and _same_file(path, kept):
                continue
            if name in dirs and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
                dirs.remove(name)
            else:
                try:
                    os.unlink(path)
                except OSError:
                    pass
    for root, dirs, files in os.walk(source):
        rel = os.path.relpath(root, source)
        for name in dirs + files:
            src, dest = os.path.join(root, name), os.path.normpath(os.path.join('/workspace', rel, name))
            if os.path.lexists(dest):
                continue  # the same file, or a directory walked into next
            try:
                if os.path.isdir(src) and not os.path.islink(src):
                    os.mkdir(dest)
                else:
                    shutil.copy2(src, dest, follow_symlinks=False)
            except OSError:
                pass


def _end_checkpoint(call):
    pid, write_fd = _checkpoints.pop(call)
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        os.waitpid(pid, 0)  # ours to reap when we forked it; else the relay (a subreaper) reaps it
    except ChildProcessError:
        pass
    os.close(write_fd)
    shutil.rmtree(_ckpt_path(call), ignore_errors=True)


# The sandbox's memory use and limit: cgroup v2 files, else cgroup v1's (hosts still on v1 or hybrid). Without
# them only the OOM killer would drop checkpoints, and it takes the largest, not the oldest, and may take the
# agent in the same breath.
_CGROUP_MEMORY = (('/sys/fs/cgroup/memory.current', '/sys/fs/cgroup/memory.max'),
                  ('/sys/fs/cgroup/memory/memory.usage_in_bytes', '/sys/fs/cgroup/memory/memory.limit_in_bytes'))


def _memory_share():
    for usage, limit in _CGROUP_MEMORY:
        try:
            with open(usage) as f:
                current = int(f.read())
            with open(limit) as f:
                bound = f.read().strip()
        except (OSError, ValueError):
            continue
        if bound == 'max' or not bound.isdigit() or int(bound) >= 1 << 60:
            return 0.0  # no limit (v1 says so with a huge number)
        return current / int(bound)
    return 0.0


def _prune_checkpoints(keep):
    """Ends checkpoints the OOM killer took, the oldest past `keep`, and the oldest while memory is short."""
    for call, (pid, _fd) in list(_checkpoints.items()):
        if not os.path.exists('/proc/%d' % pid) or _proc_state(pid) == 'Z':
            _end_checkpoint(call)
            _ckpt_dropped.append(call)
    while len(_checkpoints) > keep:
        _end_checkpoint(next(iter(_checkpoints)))
    while _checkpoints and _memory_share() > MEMORY_SHARE:
        call = next(iter(_checkpoints))
        _end_checkpoint(call)
        _ckpt_dropped.append(call)


def _proc_state(pid):
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0]
    except (OSError, IndexError):
        return 'X'


def _user_threads():
    # The agent's own threads (the host thread, egress.py's listener) are not the code's.
    return any(t.is_alive() and t is not threading.main_thread() and t.name not in ('sandbar-host', 'sandbar-egress') for t in threading.enumerate())


def _checkpoint(call, keep, snapshot=True):
    """After `call`: in the agent, makes its checkpoint and returns None; in the checkpoint, blocks until it is
    returned to and then returns what the agent sent (or ends when nobody will)."""
    if not SUBREAPER:
        return None
    _prune_checkpoints(max(0, keep - 1))
    if keep <= 0:
        return None
    try:
        if snapshot:
            _snapshot_workspace(call)
        read_fd, write_fd = os.pipe()
    except OSError:  # /tmp full, or out of descriptors: this call leaves no checkpoint
        shutil.rmtree(_ckpt_path(call), ignore_errors=True)
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # "multi-threaded, fork() may deadlock": the child takes no lock it shares
            pid = os.fork()
    except OSError:  # the pids limit (the code's own processes count too): no checkpoint, the session goes on
        os.close(read_fd)
        os.close(write_fd)
        shutil.rmtree(_ckpt_path(call), ignore_errors=True)
        return None
    if pid:
        os.close(read_fd)
        _checkpoints[call] = (pid, write_fd)
        return None
    os.close(write_fd)
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(devnull, fd)  # the call's pipes must end when the agent's copies go
    os.close(devnull)
    try:
        with open('/proc/self/oom_score_adj', 'w') as f:
            f.write('1000')  # under memory pressure a checkpoint goes before the agent
    except OSError:
        pass
    data = b''
    while not data.endswith(b'\n'):
        chunk = os.read(read_fd, 1 << 20)
        if not chunk:
            os._exit(0)  # the agent ended this checkpoint
        data += chunk
    os.close(read_fd)
    return json.loads(data.decode('utf-8'))


def _hand_over(call, start):
    """In the agent: wakes the checkpoint of `call` to run `start`, ending the ones after it. Never returns: the
    checkpoint ends this process once it has taken the channel over."""
    for later in [c for c in _checkpoints if c > call]:
        _end_checkpoint(later)
    _pid, write_fd = _checkpoints.pop(call)
    message = {'start': start, 'call': call, 'agent': os.getpid(), 'kept': list(_checkpoints), 'dropped': _ckpt_dropped}
    os.write(write_fd, _encode(message))
    while True:
        time.sleep(60)


def _take_over(handover):
    """In a checkpoint that was returned to: become the agent (the relay follows this pid, the old agent ends,
    /workspace is as call n left it, the host thread starts again)."""
    global AGENT_PID, _send_lock, _rpc_lock, _starts, _ckpt_dropped
    AGENT_PID = os.getpid()
    _send_lock, _rpc_lock, _starts = threading.Lock(), threading.Lock(), queue.Queue()
    kept = set(handover.get('kept') or [])
    for call in [c for c in _checkpoints if c not in kept]:
        _pid, write_fd = _checkpoints.pop(call)  # ended by the agent that dropped it
        os.close(write_fd)
    _ckpt_dropped = list(handover.get('dropped') or [])
    _new_call_pipes()  # the relay reads this process's output from now on
    _tell_relay(agent=AGENT_PID)
    old = handover['agent']
    try:
        os.kill(old, signal.SIGKILL)
    except OSError:
        pass
    deadline = time.monotonic() + 5
    while _proc_state(old) not in ('Z', 'X') and time.monotonic() < deadline:
        time.sleep(0.001)
    _restore_workspace(handover['call'])
    fail_pending('the call that made it has ended')
    threading.Thread(target=_serve_host, args=(_Lines(IN_FD),), name='sandbar-host', daemon=True).start()


def _checkpoint_report(call):
    global _ckpt_dropped
    dropped, _ckpt_dropped = _ckpt_dropped, []
    report = {'made': call if call in _checkpoints else None, 'dropped': dropped, 'threads': _user_threads()}
    return report if SUBREAPER else dict(report, unavailable=True)  # gVisor refuses PR_SET_CHILD_SUBREAPER
