"""OSWorld's agent half: the code itself, imported from PyPI's desktop-env wheel.

OSWorld's baseline agent (`mm_agents/agent.py`, `PromptAgent.predict`, for
the `a11y_tree` and `screenshot_a11y_tree` observation types) turns the XML
of the server's /accessibility route into the text it puts in the prompt:

    table = linearize_accessibility_tree(accessibility_tree=xml, platform="ubuntu")
    if table:
        table = trim_accessibility_tree(table, a11y_tree_max_tokens)   # 10000

`linearize_accessibility_tree` keeps the nodes that
`mm_agents/accessibility_tree_wrap/heuristic_retrieve.py`'s `filter_nodes`
(`judge_node`) keeps and writes one tab-separated row each;
`trim_accessibility_tree` cuts the text to 10,000 tokens of
`tiktoken.encoding_for_model("gpt-4")` (cl100k_base) and appends "[...]\\n".

Nothing here re-implements them: load() imports those three functions from
the unpacked desktop-env 1.0.2 wheel (bench/peers/setup.sh puts it in
target/bench-peers/osworld/desktop_env-1.0.2). agent.py imports LLM client
libraries at module level (openai, groq, dashscope, google.generativeai,
backoff, dotenv) and Pillow; those that are not installed are replaced in
sys.modules by inert stand-ins, which none of the three functions touches.

tiktoken is the real one (the version setup.sh pins). It cannot download
its encoding files here, so its file reader is pointed at the same files as
shipped inside the bpe-openai wheel (bpe_openai/data/<name>.tiktoken.gz); each
is checked against the SHA-256 that tiktoken itself expects for it.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
import sys
import types
from pathlib import Path

# Modules agent.py and heuristic_retrieve.py import at top level and that the
# functions used here never call.
_STUBBED = [
    "dotenv",
    "backoff",
    "dashscope",
    "google",
    "google.generativeai",
    "google.api_core",
    "google.api_core.exceptions",
    "openai",
    "groq",
    "PIL",
    "PIL.Image",
    "PIL.ImageDraw",
    "PIL.ImageFont",
]


class _Inert(Exception):
    """Stands for any class, exception, function or decorator of a stubbed
    module: constructible with anything, usable in `except (...)` tuples,
    and, called on a function (as a decorator), returns it unchanged."""

    def __init__(self, *args, **kwargs):  # noqa: D401
        super().__init__()

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]):
            return args[0]
        return self


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        stand_in = type(name, (_Inert,), {})
        setattr(self, name, stand_in)
        return stand_in


stubbed_modules: list = []


def _stub_missing_modules() -> None:
    for name in _STUBBED:
        if name in sys.modules:
            continue
        try:
            importlib.import_module(name)
            continue
        except ImportError:
            pass
        module = _StubModule(name)
        module.__path__ = []  # a package, so submodules can hang off it
        sys.modules[name] = module
        parent, _, child = name.rpartition(".")
        if parent and parent in sys.modules:
            setattr(sys.modules[parent], child, module)
        stubbed_modules.append(name)


def _tiktoken_offline() -> None:
    """Serve tiktoken's encoding files from the bpe-openai wheel's data."""
    import bpe_openai  # noqa: PLC0415
    import tiktoken.load  # noqa: PLC0415

    data_dir = Path(bpe_openai.__file__).resolve().parent / "data"

    def read_file_cached(blobpath: str, expected_hash=None) -> bytes:
        name = blobpath.rstrip("/").rsplit("/", 1)[-1]
        packed = data_dir / (name + ".gz")
        if not packed.is_file():
            raise FileNotFoundError(
                f"{name}: not shipped in {data_dir} (tiktoken cannot download it here)"
            )
        contents = gzip.decompress(packed.read_bytes())
        if expected_hash and hashlib.sha256(contents).hexdigest() != expected_hash:
            raise ValueError(f"{packed}: not the {name} tiktoken expects (SHA-256 differs)")
        return contents

    tiktoken.load.read_file_cached = read_file_cached


class OSWorldAgent:
    """The wheel's functions, and tiktoken encodings to count with."""

    def __init__(self, linearize, trim, filter_nodes, cl100k, o200k, source):
        self.linearize_accessibility_tree = linearize
        self.trim_accessibility_tree = trim
        self.filter_nodes = filter_nodes
        self.cl100k = cl100k
        self.o200k = o200k
        self.source = source


def load(wheel_dir: Path) -> OSWorldAgent:
    """Import linearize/trim/filter_nodes from the unpacked wheel at wheel_dir
    (the folder holding mm_agents/)."""
    wheel_dir = Path(wheel_dir).resolve()
    if not (wheel_dir / "mm_agents" / "agent.py").is_file():
        raise FileNotFoundError(
            f"{wheel_dir}/mm_agents/agent.py missing: run bench/peers/setup.sh "
            "(it unpacks desktop-env==1.0.2 there)"
        )
    _tiktoken_offline()
    _stub_missing_modules()
    sys.path.insert(0, str(wheel_dir))
    agent = importlib.import_module("mm_agents.agent")
    heuristic = importlib.import_module("mm_agents.accessibility_tree_wrap.heuristic_retrieve")

    import tiktoken  # noqa: PLC0415

    return OSWorldAgent(
        linearize=agent.linearize_accessibility_tree,
        trim=agent.trim_accessibility_tree,
        filter_nodes=heuristic.filter_nodes,
        cl100k=tiktoken.encoding_for_model("gpt-4"),
        o200k=tiktoken.get_encoding("o200k_base"),
        source=str(Path(agent.__file__).resolve()),
    )
