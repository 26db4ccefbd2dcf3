"""Actions: results, the executor, key combos."""

from cup.actions.executor import VALID_ACTIONS, ActionExecutor, ActionResult

__all__ = ["ActionExecutor", "ActionResult", "VALID_ACTIONS"]
