# Sandbar's in-container agent, last part (after agent_channel.py and agent_rpc.py): waits for a `start`
# frame, runs the code, reports. A single-use container runs one call and ends. A session's container (the
# start frame says `session: true`) keeps the interpreter's globals and /workspace and waits for the next
# `start`: each call gets its own output pipes, exit frame and artifacts. It never returns: every path that
# ends the agent ends in os._exit.
_starts = queue.Queue()  # a session's later `start` frames, read by the host thread for the main thread


def _serve_host(lines):
    """Background thread after start: route answers and later starts; EOF means the host is gone, so stop."""
    global _rpc_closed
    while True:
        message = lines.next_message()
        if message is None:
            break
        if message.get('type') == 'rpc_response':
            _on_rpc_response(message)
        elif message.get('type') == 'start':
            _starts.put(message)
        elif message.get('type') in ('egress_data', 'egress_end', 'egress_close', 'egress_ack'):
            _hook('on_egress', message)  # a connection through the host's egress proxy (egress.py)
    with _rpc_lock:
        _rpc_closed = True
    for entry in _take_pending():
        _settle(entry, False, ('RPC channel closed', None))
    _tell_relay(hostGone=True)
    os._exit(1)  # user code must not keep running (or holding the container) for nobody


def _make_sandbar_module():
    module = types.ModuleType('_sandbar', 'Bridge from sandboxed code to the Sandbar host.')
    rpc.__module__ = '_sandbar'
    module.__dict__.update(context={}, rpc=rpc, RpcError=RpcError, MAX_FRAME_BYTES=MAX_FRAME_BYTES, end_requested=False)
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


_session_main = None  # a session's __main__, kept from call to call
_prebound = {}  # what the last call pre-bound, so names of servers a later call did not load go away


def _main_module(context):
    """A fresh __main__, or a session's own with this call's pre-bound names (the servers named now)."""
    global _session_main, _prebound
    main = _session_main or types.ModuleType('__main__')
    main.__builtins__ = builtins
    names = _prebound_names(context)
    for name, value in _prebound.items():
        if name not in names and main.__dict__.get(name) is value:
            del main.__dict__[name]  # mcp_<server> of an earlier call; a name the code rebound stays
    main.__dict__.update(names)
    _prebound = names
    return main


def _run_user_code(source, context, sandbar, keep):
    """Run `source` in __main__ (fresh, or the session's when `keep`) and return the exit code Python would use."""
    global _session_main
    sandbar.context = context
    layer = context.get('packages')
    if isinstance(layer, str) and layer.startswith('/opt/sandbar/layers/') and layer not in sys.path:
        sys.path.insert(0, layer)  # the run's package layer (read-only), ahead of the image's own packages
    # Tracebacks read source lines from linecache; mtime None keeps checkcache() from dropping the entry.
    linecache.cache[SANDBOX_FILENAME] = (len(source), None, source.splitlines(True), SANDBOX_FILENAME)
    try:
        main = _main_module(context)
    except Exception:  # a host bug (bad context or boot module): report it whole, run nothing
        _print_text('sandbar: could not set up the sandbox API\n' + traceback.format_exc())
        return 1
    if keep:
        _session_main = main
    # Installed as __main__ so `if __name__ == "__main__":` runs and pickle finds user functions by reference.
    sys.modules['__main__'] = main
    try:
        code = compile(source, SANDBOX_FILENAME, 'exec', PYCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
        if code.co_flags & CO_COROUTINE:
            import asyncio
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


def _flush_streams():
    for stream in (sys.stdout, sys.stderr, _STDOUT, _STDERR):
        try:
            stream.flush()
        except Exception:  # user code may have closed or replaced them
            pass


def _finish(code, ended=False):
    """Send the exit frame and end the process with `code`. The relay forwards what fds 1/2 still hold first:
    dropping our write ends lets it see their end (user threads are not waited for: os._exit skips them)."""
    _flush_streams()
    if os.getpid() != AGENT_PID:
        os._exit(code)  # a child from the user's os.fork() ran off the end of the code: it is not the agent
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    _write_frame(_encode(dict({'type': 'exit', 'code': code}, **({'session': 'ended'} if ended else {}))), last=True)
    os._exit(code)


def _checkpoint_plan(start):
    """The start frame's `checkpoint`: this call's number, how many to keep, the call to return to (or None)."""
    plan = start.get('checkpoint')
    if not isinstance(plan, dict):
        return None
    whole = lambda v: v if type(v) is int and v >= 0 else None  # noqa: E731
    call, keep, back = whole(plan.get('call')), whole(plan.get('keep')), whole(plan.get('restoreTo'))
    return (call, keep or 0, back) if call else None


def _end_call(code, plan):
    """A session's call is done: its output, its checkpoint, then its exit frame; the next call gets fresh pipes
    (output written between calls waits there). Host calls still waiting belonged to this call: they fail now.
    Returns the next start frame, in whichever process is to run it (this one, or a checkpoint returned to)."""
    _flush_streams()
    _new_call_pipes()  # dup2 over fds 1/2: the old pipes' write ends go, so the relay drains them
    fail_pending('the call that made it has ended')
    handover = _checkpoint(plan[0], plan[1]) if plan else None
    if handover is None:
        report = {'checkpoint': _checkpoint_report(plan[0])} if plan else {}
        _write_frame(_encode(dict({'type': 'exit', 'code': code, 'session': 'open'}, **report)))
        start = _starts.get()
    while True:
        while handover is not None:  # this process is a checkpoint, returned to
            _take_over(handover)
            start = dict(handover['start'], checkpoint=dict(handover['start']['checkpoint'], restoreTo=None))
            handover = _checkpoint(handover['call'], _checkpoint_plan(start)[1], snapshot=False)  # n stays
        plan = _checkpoint_plan(start)
        if not plan or not plan[2]:
            return start
        if plan[2] not in _checkpoints or _proc_state(_checkpoints[plan[2]][0]) in ('Z', 'X'):
            # Taken by the OOM killer while the session was frozen: the state to continue from is gone.
            _print_text('sandbar: the checkpoint of call %d is gone (the memory limit took it); the session cannot go on from it\n' % plan[2])
            _finish(1)
        _hand_over(plan[2], start)  # never returns


def _run_call(start, sandbar, keep):
    source, context = start.get('code'), start.get('context')
    output = start.get('output')
    _tell_relay(call=output if isinstance(output, dict) else {})  # the relay's cap and count start here
    limits = start.get('rpcLimits')
    if isinstance(limits, list) and len(limits) == 2 and all(type(n) is int and n > 0 for n in limits):
        _flow.limit = tuple(limits)
    if not isinstance(source, str):
        _print_text('sandbar: the start frame has no code\n')
        return 1
    _hook('on_start', start)
    code = _run_user_code(source, context if isinstance(context, dict) else {}, sandbar, keep)
    if os.getpid() == AGENT_PID:  # not in a child the code forked
        _hook('on_end')  # figures still open, files in /workspace/out, imports seen (each reports its failures)
    return code


def _main():
    global _STDOUT, _STDERR, IN_FD
    in_fd = IN_FD = _take_stdio()
    _STDOUT, _STDERR = sys.stdout, sys.stderr
    sandbar = _make_sandbar_module()
    try:
        _install_boot_modules(BOOT.get('modules') or {})  # noqa: F821
        _hook('on_boot', BOOT, lambda frame: _write_frame(_encode(frame)))  # noqa: F821
    except BaseException:
        _print_text(traceback.format_exc())  # a broken boot module is a host bug: report it, never go ready
        _finish(1)
    version = '%d.%d.%d' % tuple(sys.version_info[:3])
    _write_frame(_encode({'type': 'ready', 'python': version, 'pid': AGENT_PID}))
    lines = _Lines(in_fd)
    # Idle work (warm imports) stops at the next step once the start frame is waiting.
    _hook('on_idle', lambda: bool(lines.buf) or bool(select.select([in_fd], [], [], 0)[0]))
    start = _wait_for_start(lines)
    threading.Thread(target=_serve_host, args=(lines,), name='sandbar-host', daemon=True).start()
    keep = start.get('session') is True  # fixed by the first start: a single-use container stays single-use
    while True:
        code = _run_call(start, sandbar, keep)
        if not keep or os.getpid() != AGENT_PID or sandbar.end_requested:
            _finish(code, ended=keep)
        start = _end_call(code, _checkpoint_plan(start))
        calls_resumed()


_main()
