"""Type stubs of the extension module ``cup._native`` (JSON text crosses)."""

from typing import List, Optional, Tuple

__version__: str

class CupError(RuntimeError): ...

class Session:
    def __init__(
        self,
        platform: Optional[str] = None,
        cdp_url: Optional[str] = None,
        cdp_host: Optional[str] = None,
        cdp_port: Optional[int] = None,
        serial: Optional[str] = None,
        wda_url: Optional[str] = None,
    ) -> None: ...
    def close(self) -> None: ...
    @property
    def platform_name(self) -> str: ...
    def snapshot(
        self,
        scope: str = "foreground",
        app: Optional[str] = None,
        max_depth: int = 999,
        compact: bool = True,
        detail: str = "compact",
        max_chars: Optional[int] = None,
        max_nodes: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        since: Optional[str] = None,
        bounds: bool = True,
        max_tokens: Optional[int] = None,
        ocr: str = "auto",
    ) -> str: ...
    def last_envelope(self) -> Optional[str]: ...
    def action(
        self,
        element_id: str,
        action: str,
        value: Optional[str] = None,
        direction: Optional[str] = None,
        amount: Optional[int] = None,
    ) -> str: ...
    def press(self, keys: str) -> str: ...
    def open_app(self, name: str) -> str: ...
    def find(
        self,
        query: Optional[str] = None,
        role: Optional[str] = None,
        name: Optional[str] = None,
        state: Optional[str] = None,
        limit: int = 5,
    ) -> str: ...
    def wait(
        self,
        until: Optional[str] = None,
        query: Optional[str] = None,
        role: Optional[str] = None,
        name: Optional[str] = None,
        state: Optional[str] = None,
        timeout_ms: int = 5000,
        ms: Optional[int] = None,
    ) -> str: ...
    def batch(self, steps: str) -> str: ...
    def screenshot(self, region: Optional[Tuple[int, int, int, int]] = None) -> bytes: ...
    def page(
        self,
        element_id: str,
        direction: Optional[str] = None,
        offset: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> str: ...
    def screen_info(self) -> Tuple[int, int, float]: ...
    def windows(self) -> str: ...

def prune_tree(tree: str, detail: str = "compact", screen: Optional[Tuple[int, int]] = None) -> str: ...
def serialize_compact(
    envelope: str, window_list: Optional[str] = None, detail: str = "compact", max_chars: int = 40000
) -> str: ...
def serialize_overview(windows: str, platform: str, screen_w: int, screen_h: int) -> str: ...
def format_line(node: str) -> str: ...
def search_tree(
    tree: str,
    query: Optional[str] = None,
    role: Optional[str] = None,
    name: Optional[str] = None,
    state: Optional[str] = None,
    limit: int = 5,
) -> str: ...
def tokenize(text: str) -> List[str]: ...
def resolve_roles(phrase: str) -> Optional[List[str]]: ...
def parse_query(query: str) -> Tuple[Optional[str], List[str]]: ...
def score_name(
    query_tokens: List[str], name: str, description: str = "", value: str = "", placeholder: str = ""
) -> float: ...
def parse_combo(combo: str) -> Tuple[List[str], List[str]]: ...
def check_action(action: str, value: Optional[str] = None, direction: Optional[str] = None) -> None: ...
def validate_envelope(envelope: str) -> List[str]: ...
