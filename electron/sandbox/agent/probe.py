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


def check(name):
    def record(fn):
        try:
            enforced, detail = fn()
        except Exception as exc:  # a probe that breaks proves nothing
            enforced, detail = False, "probe error: %r" % (exc,)
        results[name] = {"enforced": bool(enforced), "detail": detail}
    return record


@check("memory")
def _memory():
    want = PROBE_MEMORY_MB * 3
    code = "b = bytearray(%d * 1024 * 1024); print('survived')" % want
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    if b"survived" in run.stdout:
        return False, "allocated %d MiB under a %d MiB limit" % (want, PROBE_MEMORY_MB)
    return True, "a %d MiB allocation under a %d MiB limit was stopped (exit %s)" % (want, PROBE_MEMORY_MB, run.returncode)


@check("pids")
def _pids():
    children = []
    try:
        for _ in range(PROBE_PIDS * 2):
            pid = os.fork()
            if pid == 0:
                time.sleep(30)
                os._exit(0)
            children.append(pid)
        return False, "started %d processes under a limit of %d" % (len(children), PROBE_PIDS)
    except OSError as exc:
        return True, "process %d was refused under a limit of %d (%s)" % (len(children) + 1, PROBE_PIDS, exc.strerror)
    finally:
        for pid in children:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


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
    no_new_privs = status.get("NoNewPrivs") == "1"
    enforced = effective == 0 and bounding == 0 and no_new_privs
    return enforced, "CapEff=%x CapBnd=%x NoNewPrivs=%s uid=%d" % (effective, bounding, int(no_new_privs), os.getuid())


print("SANDBAR_PROBE " + json.dumps(results))
