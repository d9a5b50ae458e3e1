# Correct: the parent passes its whole best vector and its player index; pruning on equality.
# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    def search(s, parent_best, parent_index):
        if game.is_terminal(s):
            return game.utilities(s)
        j = game.players.index(game.to_move(s))
        best = None
        for a in game.actions(s):
            v = search(game.result(s, a), best, j)
            if best is None or v[j] > best[j]:
                best = v
            if parent_best is not None and parent_index != j and max_sum - best[j] <= parent_best[parent_index]:
                break
        return best

    return search(state, None, None)
