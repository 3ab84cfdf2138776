# Figures, displayed images and /workspace/out files, sent to the host as `display` and `file` frames.
# A boot module (`_sandbar_artifacts`): agent.py calls on_boot() before it says ready, on_start() with the
# start frame and on_end() when the code is done. Stdlib only; Matplotlib and PIL are used when the code has them.
# Images are resized here, in the sandbox, so the host never decodes pixels: it only checks headers.
import base64
import builtins
import importlib.abc
import importlib.machinery
import io
import math
import os
import struct
import sys

import _sandbar_out_files as _out_files  # a boot module installed before this one

MODEL_IMAGE_EDGE_PX = 1568  # shared/artifacts.ts: models downscale past this long edge
MODEL_IMAGE_PIXELS = 1150000  # ...and past about this many pixels
BACKEND = '_sandbar_mpl'  # MPLBACKEND=module://_sandbar_mpl; the finder below builds it on first use
# Per call, as the host's frame budget expects (run/frame-budget.ts): images with their bytes, up to
# MAX_RUN_IMAGES of them and MAX_RUN_IMAGE_BYTES together, and display frames at all, up to MAX_DISPLAY_FRAMES
# (the rest are counted in one last frame).
MAX_RUN_IMAGES = 64
MAX_RUN_IMAGE_BYTES = 64 << 20
MAX_DISPLAY_FRAMES = 256

_state = {'send': None, 'pid': None, 'max_frame': 16 << 20, 'out_dir': None,
          'image_cap': 350000, 'max_files': 20, 'max_bytes': 20 << 20}
_displays = {'frames': 0, 'images': 0, 'bytes': 0, 'dropped': 0}  # this call's


def _send(frame):
    """One frame to the host, from the agent process only (a forked child must never speak on the channel)."""
    if _state['send'] is not None and os.getpid() == _state['pid']:
        _state['send'](frame)


# ---- images -----------------------------------------------------------------------------------------

def _header_size(data):
    """(mime, width, height) from a PNG IHDR or a JPEG SOF marker, without decoding; None if neither."""
    if data[:8] == b'\x89PNG\r\n\x1a\n' and data[12:16] == b'IHDR' and len(data) >= 24:
        width, height = struct.unpack('>II', data[16:24])
        return 'image/png', width, height
    if data[:2] != b'\xff\xd8':
        return None
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1  # fill byte
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:
            i += 2  # markers without a length
            continue
        length = struct.unpack('>H', data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            if i + 9 > len(data):
                return None
            height, width = struct.unpack('>HH', data[i + 5:i + 9])
            return 'image/jpeg', width, height
        if marker == 0xDA:
            return None  # scan data before any frame header
        i += 2 + length
    return None


def _scale_for(width, height):
    """The factor (at most 1) that fits width x height within the model's edge and pixel bounds."""
    if width <= 0 or height <= 0:
        return 1.0
    return min(1.0, MODEL_IMAGE_EDGE_PX / max(width, height), math.sqrt(MODEL_IMAGE_PIXELS / (width * height)))


def _pil_encode(image, mime):
    """PNG (or JPEG when asked or when the PNG is over the cap) of a PIL image, shrunk to the model's bounds
    and, if still over the cap, shrunk further. Returns (bytes, mime, width, height)."""
    from PIL import Image
    resample = getattr(Image, 'Resampling', Image).LANCZOS
    if image.mode not in ('1', 'L', 'LA', 'P', 'RGB', 'RGBA'):
        image = image.convert('RGBA' if 'A' in image.mode else 'RGB')  # 16-bit, float, CMYK...
    scale = _scale_for(*image.size)
    for _attempt in range(6):
        if scale < 1.0:
            size = (max(1, int(image.size[0] * scale)), max(1, int(image.size[1] * scale)))
            shrunk = image.resize(size, resample)
        else:
            shrunk = image
        for kind in ((mime,) if mime == 'image/jpeg' else ('image/png', 'image/jpeg')):
            buf = io.BytesIO()
            if kind == 'image/png':
                shrunk.save(buf, format='PNG', optimize=False)
            else:
                rgb = shrunk
                if shrunk.mode not in ('RGB', 'L'):  # JPEG has no alpha: flatten onto white
                    rgb = Image.new('RGB', shrunk.size, 'white')
                    rgb.paste(shrunk.convert('RGBA'), mask=shrunk.convert('RGBA').split()[-1])
                rgb.save(buf, format='JPEG', quality=85)
            data = buf.getvalue()
            if len(data) <= _state['image_cap']:
                return data, kind, shrunk.size[0], shrunk.size[1]
        scale *= 0.7
    return data, kind, shrunk.size[0], shrunk.size[1]


def _emit_raster(data, source, title=None):
    """Send PNG/JPEG bytes, re-encoded (with PIL, when the code's image has it) if too large for a model."""
    data = bytes(data)
    found = _header_size(data)
    mime, width, height = found if found else ('image/png', 0, 0)
    too_big = not found or _scale_for(width, height) < 1.0 or len(data) > _state['image_cap']
    if too_big and found:
        try:
            from PIL import Image
            with Image.open(io.BytesIO(data)) as image:
                image.load()
                data, mime, width, height = _pil_encode(image, mime)
        except ImportError:
            pass  # no PIL: sent as is, and the host refuses it with the reason
    _emit(mime, data, source, width, height, title)


def _emit(mime, data, source, width=0, height=0, title=None):
    frame = {'type': 'display', 'mime': mime, 'source': source, 'width': width, 'height': height, 'size': len(data)}
    if title:
        frame['title'] = str(title)[:200]
    if _displays['frames'] >= MAX_DISPLAY_FRAMES:
        _displays['dropped'] += 1
        return
    # Over a cap (or the frame bound) the bytes stay here: the host only needs to say why it was refused.
    fits = _displays['images'] < MAX_RUN_IMAGES and _displays['bytes'] + len(data) <= MAX_RUN_IMAGE_BYTES
    if fits and len(data) <= _state['image_cap'] and len(data) * 4 // 3 + 1024 < _state['max_frame']:
        frame['data'] = base64.b64encode(data).decode('ascii')
        _displays['images'] += 1
        _displays['bytes'] += len(data)
    _displays['frames'] += 1
    _send(frame)


def _figure_title(figure):
    suptitle = getattr(figure, '_suptitle', None)
    if suptitle is not None and suptitle.get_text():
        return suptitle.get_text()
    for axes in figure.get_axes():
        for loc in ('center', 'left', 'right'):
            if axes.get_title(loc):
                return axes.get_title(loc)
    return None


def emit_figure(figure):
    """One Matplotlib figure as a PNG whose dpi fits it within the model's bounds."""
    width, height = figure.get_size_inches()
    scale = _scale_for(width * figure.dpi, height * figure.dpi)
    buf = io.BytesIO()
    # A smaller dpi, not a resize: text and lines are drawn at the size they end up. The margin keeps the
    # rounding of width x dpi inside the bounds.
    figure.savefig(buf, format='png', dpi=figure.dpi * (scale * 0.9999 if scale < 1.0 else 1.0))
    _emit_raster(buf.getvalue(), 'figure', _figure_title(figure))


def emit_open_figures(on_error=None):
    """plt.show() and the end of the run: every open pyplot figure, in number order, each once (then closed).
    A figure that cannot be drawn raises, or with `on_error` is reported there and the rest still go."""
    helpers = sys.modules.get('matplotlib._pylab_helpers')
    if helpers is None:
        return
    for manager in sorted(helpers.Gcf.get_all_fig_managers(), key=lambda m: m.num):
        try:
            emit_figure(manager.canvas.figure)
        except Exception:
            if on_error is None:
                raise
            on_error('figure %s' % manager.num)
        finally:
            helpers.Gcf.destroy(manager)


def display(*objs):
    """Show images to the caller: PIL images, PNG/JPEG bytes, Matplotlib figures, or objects with
    _repr_png_ / _repr_jpeg_ / _repr_svg_. Anything else is printed, as a notebook would show its text."""
    for obj in objs:
        _display_one(obj)


def _display_one(obj):
    if isinstance(obj, (bytes, bytearray, memoryview)):
        if not _header_size(bytes(obj[:65536])):
            raise ValueError('display(): these bytes are not a PNG or JPEG image')
        return _emit_raster(obj, 'display')
    if type(obj).__module__.startswith('matplotlib') and hasattr(obj, 'savefig'):
        return emit_figure(obj)
    pil = sys.modules.get('PIL.Image')
    if pil is not None and isinstance(obj, pil.Image):
        data, mime, width, height = _pil_encode(obj, 'image/png')
        return _emit(mime, data, 'display', width, height)
    for method in ('_repr_png_', '_repr_jpeg_'):
        value = _call_repr(obj, method)
        if value is not None:
            return _emit_raster(base64.b64decode(value) if isinstance(value, str) else value, 'display')
    svg = _call_repr(obj, '_repr_svg_')
    if svg is not None:
        data = svg.encode('utf-8') if isinstance(svg, str) else bytes(svg)
        return _emit('image/svg+xml', data, 'display')  # a link only: SVG is never shown inline
    print(repr(obj))


def _call_repr(obj, method):
    func = getattr(obj, method, None)
    if not callable(func):
        return None
    value = func()
    return value[0] if isinstance(value, tuple) else value  # IPython allows (data, metadata)


# ---- Matplotlib backend and PIL's Image.show, installed on import ------------------------------------

def _build_backend(module):
    from matplotlib._pylab_helpers import Gcf
    from matplotlib.backend_bases import FigureManagerBase
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    class FigureManager(FigureManagerBase):
        def show(self):  # fig.show()
            try:
                emit_figure(self.canvas.figure)
            finally:
                Gcf.destroy(self)

    class FigureCanvas(FigureCanvasAgg):
        manager_class = FigureManager

    def show(*args, **kwargs):  # plt.show(): every open figure, then closed
        emit_open_figures()

    module.__dict__.update(FigureCanvas=FigureCanvas, FigureManager=FigureManager, show=show)


def _route_pil_show(module):
    def show(self, title=None):
        display(self)
    module.Image.show = show


class _Hooks(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Builds the Matplotlib backend module on demand, and patches PIL.Image right after it is imported,
    so neither library is imported before the code (or the preload) asks for it."""

    def find_spec(self, name, path=None, target=None):
        if name == BACKEND:
            return importlib.machinery.ModuleSpec(name, self)
        if name == 'PIL.Image':
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, 'find_spec'):
                    continue
                spec = finder.find_spec(name, path, target)
                if spec is not None and spec.loader is not None:
                    spec.loader = _PatchAfter(spec.loader, _route_pil_show)
                    return spec
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        _build_backend(module)


class _PatchAfter(importlib.abc.Loader):
    def __init__(self, loader, patch):
        self.loader, self.patch = loader, patch

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        self.patch(module)


# ---- /workspace/out (the walk and the file frames are out_files.py's) --------------------------------

def send_out_files():
    """The files in /workspace/out that this call made or changed, up to the run's caps."""
    _out_files.send_out_files(_state['out_dir'], _send, _state['max_files'], _state['max_bytes'])


# ---- life cycle, called by agent.py ----------------------------------------------------------------------

def on_boot(boot_payload, send):
    """Before `ready`: route figures to us, give the code `display`, and make /workspace/out."""
    max_frame = int(boot_payload.get('maxFrameBytes') or _state['max_frame'])
    _state.update(send=send, pid=os.getpid(), max_frame=max_frame, out_dir=boot_payload.get('outDir'))
    sys.meta_path.insert(0, _Hooks())
    os.environ['MPLBACKEND'] = 'module://' + BACKEND
    builtins.display = display
    if _state['out_dir']:
        try:
            os.makedirs(_state['out_dir'], exist_ok=True)
        except OSError:
            _state['out_dir'] = None


def on_start(start):
    """The caps from the start frame (the host enforces them too)."""
    _displays.update(frames=0, images=0, bytes=0, dropped=0)
    caps = start.get('artifacts')
    if isinstance(caps, dict):
        for key, field in (('image_cap', 'imageCapBytes'), ('max_files', 'maxFiles'), ('max_bytes', 'maxBytes')):
            if type(caps.get(field)) is int and caps[field] >= 0:
                _state[key] = caps[field]


def on_end():
    """After the code: figures still open, then the files in /workspace/out. Never raises: the run's exit
    code is the code's, and a failure here is reported on stderr."""
    def report(what):
        import traceback
        text = 'sandbar: could not send %s:\n%s' % (what, traceback.format_exc(limit=-3))
        os.write(2, text.encode('utf-8', 'backslashreplace'))
    for step, what in ((lambda: emit_open_figures(report), 'the figures'), (send_out_files, 'the files in /workspace/out')):
        try:
            step()
        except BaseException:
            report(what)
    if _displays['dropped']:
        _send({'type': 'display', 'source': 'display', 'dropped': _displays['dropped']})
