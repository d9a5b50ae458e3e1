# fix: The message said my evaluation is not symmetric because it ignores the opponent, so the distance term now counts the opponent's distance minus mine instead of only my own.
# clear: yes

# %% food_grid_evaluate
def _food_distance(state, start, other):
    """Steps from `start` to the nearest food, around walls and the other piece (None if unreachable)."""
    if state.food >> start & 1:
        return 0
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        i, d = queue.popleft()
        r, c = divmod(i, state.width)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < state.height and 0 <= cc < state.width):
                continue
            j = rr * state.width + cc
            if j in seen or state.walls >> j & 1 or j == other:
                continue
            if state.food >> j & 1:
                return d + 1
            seen.add(j)
            queue.append((j, d + 1))
    return None

def food_grid_evaluate(state, player):
    """(state, player) -> float in (-1, 1): score difference, then who is nearer to food, for `player`."""
    me = 0 if player == "A" else 1
    total = bin(state.food).count("1") + state.scores[0] + state.scores[1]
    far = state.width * state.height
    mine = _food_distance(state, state.positions[me], state.positions[1 - me])
    theirs = _food_distance(state, state.positions[1 - me], state.positions[me])
    mine = far if mine is None else mine
    theirs = far if theirs is None else theirs
    nearer = 0.5 * (theirs - mine) / (far + 1)
    return (state.scores[me] - state.scores[1 - me] + nearer) / (total + 1)
