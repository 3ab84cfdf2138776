# Warm imports (boot module `_sandbar_warm`): while a pooled agent waits for its start frame, it imports the
# modules the host asked for (setting `preload`), so the code's own `import pandas` finds them loaded and
# costs nothing. It says `ready` first and stops between modules once a start frame is waiting, so a run
# never waits for preloads it may not need beyond the one module being imported.
# It also puts Matplotlib's font list where Matplotlib looks for it. That list is built once per image on the
# host's side and delivered in the boot payload: with a read-only root and a fresh /workspace, Matplotlib
# would otherwise rebuild it (seconds of CPU) in every container. Nothing of the host is mounted for it.
import gc
import os
import re
import traceback

FONT_LIST_NAME = re.compile(r'^fontlist-v\d+\.json$')


def _matplotlib_cache_dir():
    """Where Matplotlib (matplotlib.get_cachedir) looks for its font list, without importing it."""
    configured = os.environ.get('MPLCONFIGDIR')
    if configured:
        return configured
    base = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'matplotlib')


def _install_font_list(font_list):
    if not isinstance(font_list, dict):
        return
    name, data = font_list.get('name'), font_list.get('data')
    if not (isinstance(name, str) and FONT_LIST_NAME.match(name) and isinstance(data, str)):
        return
    try:
        directory = _matplotlib_cache_dir()
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, name), 'w', encoding='utf-8') as f:
            f.write(data)
    except OSError:
        pass  # Matplotlib builds its own, as it would without us


def _preload(plan, pending):
    """Imports each module; with `optional` (the default list) a module the image lacks is skipped quietly."""
    loaded, failed = [], []
    modules = plan.get('modules') if isinstance(plan, dict) else None
    for name in modules if isinstance(modules, list) else []:
        if pending():
            break
        if not isinstance(name, str):
            continue
        try:
            __import__(name)
            loaded.append(name)
        except ImportError as exc:
            if not plan.get('optional') or getattr(exc, 'name', None) not in (name, name.split('.')[0]):
                failed.append({'module': name, 'error': '%s: %s' % (type(exc).__name__, exc)})
        except BaseException as exc:  # SystemExit or a crash in the module's own code: report, keep booting
            failed.append({'module': name, 'error': traceback.format_exception_only(type(exc), exc)[-1].strip()})
    return loaded, failed


def _warm_matplotlib(loaded):
    """A process's first figure pays one-time costs (pandas' plotting module, the backend, the font file,
    glyph and text-layout caches, the tick machinery): measured, the plot snippet through MCP took 162 ms
    at p50 without this and 95 ms with it. A tiny figure (1 x 1 inch at 20 dpi) pays them for about 50 ms
    of CPU; a full-size one cost 130 ms. It is closed at once: no figure, number or setting is left."""
    if 'matplotlib.pyplot' not in loaded:
        return
    import importlib
    import io
    import matplotlib.pyplot as plt
    if 'pandas' in loaded:
        try:
            importlib.import_module('pandas.plotting._matplotlib')  # what DataFrame.plot imports on first use
        except Exception:
            pass
    fig = plt.figure(figsize=(1, 1), dpi=20)
    try:
        axes = fig.add_subplot()
        axes.plot([0, 1], [0, 1], label='w')
        axes.set_title('Warm 0123456789')
        axes.legend()
        fig.savefig(io.BytesIO(), format='png')
    finally:
        plt.close(fig)


_watch = {'names': (), 'used': set(), 'send': None, 'import': None}


def _watching_import(name, globals=None, locals=None, fromlist=(), level=0):
    """builtins.__import__ while the code runs: notes which watched modules it imports (by any route:
    `import pandas`, `from matplotlib import pyplot`, or a library importing them for it), then imports."""
    if not level:
        for watched in _watch['names']:
            if name == watched or name.startswith(watched + '.') or (
                    fromlist and watched.startswith(name + '.') and watched[len(name) + 1:] in fromlist):
                _watch['used'].add(watched)
    return _watch['import'](name, globals, locals, fromlist, level)


def on_start(start):
    """With `watchImports` (the default preloads), note which of them the code imports: the host preloads
    only what runs use."""
    names = start.get('watchImports')
    if isinstance(names, list) and names and all(isinstance(n, str) for n in names):
        import builtins
        _watch['names'] = tuple(names)
        _watch['import'] = builtins.__import__
        builtins.__import__ = _watching_import


def on_end():
    if _watch['import'] is None:
        return
    import builtins
    if builtins.__import__ is _watching_import:
        builtins.__import__ = _watch['import']
    _watch['send']({'type': 'imports', 'modules': sorted(_watch['used'])})


def on_boot(boot_payload, send):
    _watch.update(send=send, plan=boot_payload.get('preload'))
    _install_font_list(boot_payload.get('mplFontCache'))


def on_idle(pending):
    """After `ready`, until a start frame is waiting (`pending()`): the preloads, their warm-up, then the
    heap frozen. The preload frame says what was done; a run that came early skips the rest."""
    plan = _watch.get('plan')
    if not plan:
        return
    loaded, failed = _preload(plan, pending)
    try:
        if not pending():
            _warm_matplotlib(loaded)
    except Exception as exc:
        failed.append({'module': 'matplotlib (warm-up)', 'error': '%s: %s' % (type(exc).__name__, exc)})
    if loaded:
        # The preloaded modules are hundreds of thousands of objects that live as long as the process: moved
        # out of the collector's reach, a full collection during the code no longer walks them all (measured:
        # the plot snippet's CPU 65-70 ms instead of 105-190). No gc.collect() first: it cost ~55 ms per
        # container, and what it would free is a little import-time garbage.
        gc.freeze()
    _watch['send']({'type': 'preload', 'loaded': loaded, 'failed': failed, 'complete': not pending()})
