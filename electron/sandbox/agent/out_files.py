# The files the code leaves in /workspace/out, sent to the host as `file` frames (artifacts `out/<path>`).
# A boot module (`_sandbar_out_files`) with no hooks of its own: artifacts.py calls send_out_files() when the
# code is done, with its frame sender and the run's caps. Stdlib only; never follows a symlink.
import base64
import os
import re
import stat

FILE_CHUNK_BYTES = 1 << 20  # raw bytes per file frame: well under the frame limit once base64'd (run/frame-budget.ts)
MAX_OMITTED_REPORTS = 50  # files left out are each named, up to this many (run/frame-budget.ts)


def _artifact_name(relative, used):
    """`out/<path>` in the characters an artifact name allows, unique in the run."""
    segments = [re.sub(r'[^A-Za-z0-9._-]', '_', s) or '_' for s in relative.split(os.sep)]
    name = 'out/' + '/'.join(s if s not in ('.', '..') else '_' for s in segments)
    stem, dot, ext = name.rpartition('.') if '.' in name.rsplit('/', 1)[-1] else (name, '', '')
    n = 1
    while name in used:
        n += 1
        name = '%s-%d%s%s' % (stem, n, dot, ext)
    used.add(name)
    return name


def _out_files(out_dir):
    """Regular files under out_dir, sorted by path, never following symlinks."""
    found = []
    for root, _dirs, files in os.walk(out_dir, followlinks=False):
        for name in files:
            path = os.path.join(root, name)
            try:
                if stat.S_ISREG(os.lstat(path).st_mode):
                    found.append(path)
            except OSError:
                continue
    return sorted(found, key=lambda p: os.path.relpath(p, out_dir).split(os.sep))


_sent_versions = {}  # path -> (size, mtime) sent back; only a session's later calls meet them again


def send_out_files(out_dir, send, max_files, max_bytes):
    """Sends the regular files under out_dir as `file` frames through send(), at most max_files of them and
    max_bytes together; each file left out (or unreadable) is named with why, up to MAX_OMITTED_REPORTS."""
    if not out_dir or not os.path.isdir(out_dir):
        return
    used, sent_files, sent_bytes, omitted = set(), 0, 0, 0
    for path in _out_files(out_dir):
        name = _artifact_name(os.path.relpath(path, out_dir), used)
        try:
            info = os.lstat(path)
        except OSError:
            continue
        size, version = info.st_size, (info.st_size, info.st_mtime_ns)
        if _sent_versions.get(path) == version:
            continue  # a session's later call: this file went back with an earlier call, unchanged since
        _sent_versions[path] = version
        why = 'files' if sent_files >= max_files else 'bytes' if sent_bytes + size > max_bytes else None
        if why is None:
            why = _send_file(send, path, name, size)
        if why is None:
            sent_files, sent_bytes = sent_files + 1, sent_bytes + size
        elif omitted < MAX_OMITTED_REPORTS:
            omitted += 1
            send({'type': 'file', 'name': name, 'size': size, 'omitted': why})


def _send_file(send, path, name, counted):
    """Streams one file in chunks, at most the `counted` bytes it was checked against; None when sent, else why not."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, 'O_NOFOLLOW', 0))
    except OSError:
        return 'unreadable'
    try:
        size = min(os.fstat(fd).st_size, counted)  # a file that grows meanwhile is cut here; one that shrinks ends early
        offset = 0
        while True:
            chunk = os.read(fd, min(FILE_CHUNK_BYTES, size - offset)) if offset < size else b''
            last = not chunk or offset + len(chunk) >= size
            send({'type': 'file', 'name': name, 'offset': offset, 'data': base64.b64encode(chunk).decode('ascii'), 'last': last})
            offset += len(chunk)
            if last:
                return None
    except OSError:
        return 'unreadable'
    finally:
        os.close(fd)
