# Entry maxn_player_from_depth (06_beyond_two_players), cell(s): maxn_value
# Mistake: the player who chooses is taken from the depth (P1 at depth 0, P2 at depth 1, P3 at depth 2, ...) instead of from game.to_move, so a player who moves twice in a row is mistaken for the next one
# First wrong step: twice: inside the search from 'root', the node 'a' (P1 moves again) is given to P2, who keeps (2, 5, 0) instead of P1's (3, 1, 1), and 'b' to P2 instead of P3, who keeps (4, 4, 4) instead of (1, 1, 6); the root gets (4, 4, 4) instead of (3, 1, 1) (called on 'a' or 'b' directly the answers are right)
# Checked: maxn_value(twice, 'root'), 'a' and 'b', this function against mine; the vectors inside the root's search worked out from the code

# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        mover = game.to_move(s)
        if mover == CHANCE:
            return sum(p * value(game.result(s, a)) for a, p in game.outcomes(s))
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if mover == player else min(values)

    return value(state)

# %% maxn_value
def maxn_value(game, state):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""

    def value(s, depth):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        i = depth % len(game.players)
        best = None
        for a in game.actions(s):
            v = value(game.result(s, a), depth + 1)
            if best is None or v[i] > best[i]:
                best = v
        return best

    return value(state, game.players.index(game.to_move(state)))

# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    """max^n with shallow pruning, for nonnegative utilities that sum to at most `max_sum`."""

    def value(s, bound, parent):
        # bound: the best entry the parent's player `parent` is sure of (None: nothing yet)
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        mover = game.to_move(s)
        j = game.players.index(mover)
        best = None
        for a in game.actions(s):
            v = value(game.result(s, a), None if best is None else best[j], mover)
            if best is None or v[j] > best[j]:
                best = v
            if bound is not None and parent != mover and best[j] >= max_sum - bound:
                break
        return best

    return value(state, None, None)
