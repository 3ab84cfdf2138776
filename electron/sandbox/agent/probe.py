# Enforcement probe: runs as ordinary sandbox code under deliberately small limits and tries to break
# each one. It reports what actually held, not what the runtime accepted on its command line.
# PROBE_MEMORY_MB and PROBE_PIDS are prepended by the host.
import json
import os
import signal
import socket
import subprocess
import sys
import time

results = {}
deferred = []


def check(name, last=False):
    def record(fn):
        def run():
            try:
                enforced, detail = fn()
            except Exception as exc:  # a probe that breaks proves nothing
                enforced, detail = False, "probe error: %r" % (exc,)
            results[name] = {"enforced": bool(enforced), "detail": detail}
        if last:
            deferred.append(run)
        else:
            run()
    return record


# Last: under gVisor the memory limit bounds the whole sandbox, so exceeding it ends the probe itself.
@check("memory", last=True)
def _memory():
    want = PROBE_MEMORY_MB * 3
    code = "b = bytearray(%d * 1024 * 1024); print('survived')" % want
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    if b"survived" in run.stdout:
        return False, "allocated %d MiB under a %d MiB limit" % (want, PROBE_MEMORY_MB)
    return True, "a %d MiB allocation under a %d MiB limit was stopped (exit %s)" % (want, PROBE_MEMORY_MB, run.returncode)


@check("pids")
def _pids():
    # Sleepers started by exec, not forked Pythons: each costs little memory, so only a pids limit can
    # refuse them (under gVisor, 64 forked interpreters would hit a small memory limit first).
    children = []
    try:
        for _ in range(PROBE_PIDS * 2):
            children.append(subprocess.Popen(["sleep", "30"]))
        return False, "started %d processes under a limit of %d" % (len(children), PROBE_PIDS)
    except OSError as exc:
        return True, "process %d was refused under a limit of %d (%s)" % (len(children) + 1, PROBE_PIDS, exc.strerror)
    finally:
        for child in children:
            child.kill()
            child.wait()


@check("network")
def _network():
    interfaces = sorted(os.listdir("/sys/class/net"))
    routed = []
    # A UDP connect() only asks for a route; no packet leaves even if one exists.
    for family, address in ((socket.AF_INET, ("192.0.2.1", 53)), (socket.AF_INET6, ("2001:db8::1", 53))):
        sock = socket.socket(family, socket.SOCK_DGRAM)
        try:
            sock.connect(address)
            routed.append(address[0])
        except OSError:
            pass
        finally:
            sock.close()
    enforced = interfaces == ["lo"] and not routed
    return enforced, "interfaces: %s; routes out: %s" % (", ".join(interfaces), ", ".join(routed) or "none")


@check("readOnlyRoot")
def _read_only_root():
    root_options = []
    with open("/proc/self/mountinfo") as mounts:
        for line in mounts:
            fields = line.split()
            if fields[4] == "/":
                root_options = fields[5].split(",")
    try:
        with open("/.sandbar-probe", "w"):
            pass
        os.unlink("/.sandbar-probe")
        wrote = True
    except OSError:
        wrote = False
    enforced = "ro" in root_options and not wrote
    return enforced, "root mounted %s; writing to / %s" % ("read-only" if "ro" in root_options else "read-write", "succeeded" if wrote else "failed")


@check("capabilities")
def _capabilities():
    status = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            status[key] = value.strip()
    effective = int(status.get("CapEff", "0"), 16)
    bounding = int(status.get("CapBnd", "0"), 16)
    if "NoNewPrivs" in status:
        no_new_privs = status["NoNewPrivs"] == "1"
    else:  # gVisor's /proc/self/status has no such line: ask the kernel (PR_GET_NO_NEW_PRIVS)
        import ctypes
        no_new_privs = ctypes.CDLL(None, use_errno=True).prctl(39, 0, 0, 0, 0) == 1
    enforced = effective == 0 and bounding == 0 and no_new_privs
    return enforced, "CapEff=%x CapBnd=%x NoNewPrivs=%s uid=%d" % (effective, bounding, int(no_new_privs), os.getuid())


# Syscalls Sandbar's seccomp profile denies, by number (libc may not wrap them all).
DENIED_SYSCALLS = {
    "x86_64": {"keyctl": 250, "bpf": 321, "userfaultfd": 323, "perf_event_open": 298, "io_uring_setup": 425},
    "aarch64": {"keyctl": 219, "bpf": 280, "userfaultfd": 282, "perf_event_open": 241, "io_uring_setup": 425},
}
CLONE_NEWUSER = 0x10000000
PTRACE_TRACEME = 0


def _in_child(fn):
    """Run fn() in a forked single-threaded child (unshare refuses multithreaded callers); return its errno."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.write(write_end, str(fn()).encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        answer = pipe.read()
    os.waitpid(pid, 0)
    return int(answer or -1)


@check("seccomp")
def _seccomp():
    import ctypes
    import errno
    import platform

    libc = ctypes.CDLL(None, use_errno=True)

    def errno_of(result):
        return 0 if result != -1 else ctypes.get_errno()

    outcomes = {
        "unshare(CLONE_NEWUSER)": _in_child(lambda: errno_of(libc.unshare(CLONE_NEWUSER))),
        # A child that becomes traced exits at once, so a permissive profile cannot leave it stopped.
        "ptrace(PTRACE_TRACEME)": _in_child(lambda: errno_of(libc.ptrace(PTRACE_TRACEME, 0, None, None))),
    }
    for name, number in DENIED_SYSCALLS.get(platform.machine(), {}).items():
        outcomes[name] = errno_of(libc.syscall(number, 0, 0, 0, 0, 0))
    allowed = [name for name, err in outcomes.items() if err != errno.EPERM]
    if allowed:
        return False, "not refused with EPERM: " + ", ".join(
            "%s (%s)" % (name, errno.errorcode.get(outcomes[name], "allowed")) for name in allowed)
    return True, "refused with EPERM: " + ", ".join(outcomes)


# What is known so far, then again after the deferred checks; the host reads the last line it got.
print("SANDBAR_PROBE " + json.dumps(results), flush=True)
for run in deferred:
    run()
print("SANDBAR_PROBE " + json.dumps(results), flush=True)
