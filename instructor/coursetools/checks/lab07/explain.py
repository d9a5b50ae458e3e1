"""Lab 07's explanations (grader only): what a group says when it cannot compare, or where a run first differs."""

from __future__ import annotations

from ..kit import Case


def unrepeatable(function: str, skipped: list[Case]) -> str:
    """Why a group compared no case: the search does not repeat itself with one seed (plainly, whose draws)."""
    return (f"{function} is compared with YOUR mcts_search run with the same seed, but yours, run twice with the same "
            f"seed, generated different states on every case here ({', '.join(c.name for c in skipped[:3])}): it draws "
            "numbers from something other than the rng it is given (your rollout or your mcts_search: see "
            "test_rollout and test_search_trees, which grade those draws). Nothing here is graded until it repeats "
            "itself.")


def search_failed(function: str, failed: list[str]) -> str:
    """Why a group compared no case: YOUR search (or your own run without a clock) failed on every one."""
    return (f"{function} is compared with YOUR own search on the same case, but that search failed on every case "
            f"here, so there is nothing to compare with (test_search_trees and test_search_games grade it). The "
            f"first:\n{failed[0]}")


def clock_story(mine: list, plain: list, before: int, n: int, budget: int) -> str:
    """Where a clocked run left YOUR own unclocked run of `n` iterations, whose first n - 1 generate `before` states:
    facts of the two runs and the rule, nothing guessed."""
    rule = ("The clock is asked before each iteration only: an iteration that has started always finishes "
            "(its rollout and its backup), and the next one does not start.")
    if plain[:len(mine)] == mine:
        if len(mine) > before:
            return (f"Your run without a clock: iterations 1 to {n - 1} generate {before} states, iteration {n} "
                    f"generates states {before + 1} to {len(plain)}, and the budget of {budget} is spent by state "
                    f"{budget}, inside iteration {n}. With the clock yours stopped after state {len(mine)}, inside "
                    f"iteration {n}, before the end of that iteration. {rule}")
        return (f"Your run without a clock: iterations 1 to {n - 1} generate {before} states, fewer than the budget "
                f"of {budget}, so the clock has not expired before iteration {n}. With the clock yours stopped after "
                f"state {len(mine)}, before iteration {n} began. {rule}")
    if mine[:len(plain)] == plain:
        return (f"Your run without a clock spends the budget of {budget} in iteration {n}, at its end state "
                f"{len(plain)}; with the clock yours went on to {len(mine)} states, past the end of iteration {n}. "
                f"{rule}")
    first = next(i for i, (a, b) in enumerate(zip(mine, plain)) if a != b)
    return (f"With the clock your run generates other states than without it from state {first + 1} on (the budget "
            f"is {budget}): on clock.watch(game) the search must take the same steps as on the game itself.")
