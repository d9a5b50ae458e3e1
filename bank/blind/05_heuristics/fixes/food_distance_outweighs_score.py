# fix: the message says a food eaten must outweigh any distance difference (keep the distance part below 1 before scaling); I divide the distance difference by (2*width*height + 1) so it stays below 1.
# clear: yes

# %% food_grid_evaluate
def food_grid_evaluate(state, player):
    """(state, player) -> float in (-1, 1): score difference, then who is nearer to food, for `player`."""
    me = 0 if player == "A" else 1
    food_total = bin(state.food).count("1") + state.scores[0] + state.scores[1]

    def nearest_food(start):

        seen = {start}
        queue = deque([(start, 0)])
        while queue:
            i, d = queue.popleft()
            if state.food >> i & 1:
                return d
            r, c = divmod(i, state.width)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < state.height and 0 <= cc < state.width:
                    j = rr * state.width + cc
                    if j not in seen and not state.walls >> j & 1:
                        seen.add(j)
                        queue.append((j, d + 1))
        return math.inf

    dist = [min(nearest_food(p), 2 * state.width * state.height) for p in state.positions]
    diff = state.scores[me] - state.scores[1 - me]
    near = (dist[1 - me] - dist[me]) / (2 * state.width * state.height + 1)
    return (diff + near) / (food_total + 1 + 2 * state.width * state.height)
