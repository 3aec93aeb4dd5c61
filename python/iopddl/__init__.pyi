# Types of the iopddl package, for type checkers and editors (the docstrings are in the
# package itself: help(iopddl.solve)).
import logging
from os import PathLike
from typing import Any, Callable, Literal, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

Status = Literal["optimal", "feasible", "infeasible", "no solution"]
ArrayLike = Union[npt.ArrayLike, Sequence[Any]]

class InputError(ValueError): ...

class Problem:
    name: str
    usage_limit: Optional[int]
    num_nodes: int
    num_edges: int
    # Set by from_arrays (and load, for a request):
    cost_scale: float
    max_rounding_error: float
    node_names: list[str]
    strategy_names: list[list[str]]
    def strategies(self, node: int) -> int: ...
    def costs(self, node: int) -> list[int]: ...
    def usages(self, node: int) -> list[int]: ...
    def interval(self, node: int) -> tuple[int, int]: ...
    def edge(self, edge: int) -> tuple[int, int, list[int]]: ...
    def save(self, path: str) -> None: ...

class ProblemBuilder:
    num_nodes: int
    num_edges: int
    def __init__(self, name: str = ...) -> None: ...
    def set_usage_limit(self, limit: Optional[int]) -> None: ...
    def add_node(self, costs: ArrayLike, usages: ArrayLike, lo: int = ..., hi: int = ...) -> int: ...
    def add_edge(self, u: int, v: int, costs: ArrayLike) -> int: ...
    def build(self) -> Problem: ...

class Result:
    status: Status
    note: str
    has_solution: bool
    assignment: npt.NDArray[np.int32]
    cost: Optional[Union[int, float]]
    scaled_cost: Optional[int]
    bound: Optional[Union[int, float]]
    gap: Optional[float]
    peak_usage: Optional[int]
    improvements: list[tuple[float, Union[int, float], str]]
    bounds: list[tuple[float, Union[int, float]]]
    seconds: float
    work_units: int
    interrupted: bool
    infeasibility: Optional[dict[str, Any]]
    plan: Optional[dict[str, Union[str, int]]]
    def memory_profile(self) -> Optional[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], list[int]]]: ...
    def plot(self, path: Union[str, PathLike[str]], named: int = ...) -> None: ...
    def summary(self) -> str: ...

def from_arrays(costs: Sequence[ArrayLike], usages: Sequence[ArrayLike], intervals: ArrayLike,
                edges: ArrayLike, edge_costs: Sequence[ArrayLike],
                usage_limit: Optional[int] = ..., name: str = ..., *,
                cost_scale: Optional[float] = ..., node_names: Optional[Sequence[str]] = ...,
                strategy_names: Optional[Sequence[Sequence[str]]] = ...) -> Problem: ...

def solve(problem: Problem, time_limit: float = ..., threads: int = ..., seed: int = ...,
          deterministic: bool = ..., work_limit: int = ...,
          hint: Optional[Union[ArrayLike, Mapping[str, Union[str, int]]]] = ...,
          cost_cutoff: Optional[Union[int, float]] = ..., gap_limit: float = ...,
          callback: Optional[Callable[[float, Union[int, float], str, npt.NDArray[np.int32]], Optional[bool]]] = ...,
          log: Union[bool, logging.Logger] = ...,
          bound_callback: Optional[Callable[[float, Union[int, float]], Optional[bool]]] = ...) -> Result: ...

def solve_request(request: bytes, time_limit: float = ..., threads: int = ..., seed: int = ...,
                  deterministic: bool = ..., work_limit: int = ...,
                  ignore_unsupported_fields: bool = ...) -> dict[str, Any]: ...

def load(path: str, ignore_unsupported_fields: bool = ..., cost_scale: Optional[float] = ...) -> Problem: ...

def generate(family: str = ..., nodes: int = ..., seed: int = ..., limit_factor: float = ...,
             isolated_share: float = ..., hub_share: float = ..., strategies_mean: float = ...,
             max_strategies: int = ...) -> Problem: ...

def evaluate(problem: Problem, assignment: ArrayLike) -> dict[str, Any]: ...
