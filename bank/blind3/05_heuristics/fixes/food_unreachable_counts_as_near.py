# fix: the message only said my evaluation prefers positions that turn out badly (lost games against random moves); guessing from that, I saw nearest_food returns 0 (as near as possible) when no food can be reached, and made it return cells (as far as possible) instead
# clear: no

# %% food_grid_evaluate
def food_grid_evaluate(state, player):
    """(state, player) -> float in (-1, 1): score difference, then who is nearer to food, for `player`."""
    me = 0 if player == "A" else 1
    food_total = bin(state.food).count("1") + state.scores[0] + state.scores[1]
    cells = state.width * state.height

    def nearest_food(start):

        seen, frontier = {start}, deque([(start, 0)])
        while frontier:
            square, d = frontier.popleft()
            if state.food >> square & 1:
                return d
            r, c = divmod(square, state.width)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                nxt = rr * state.width + cc
                if 0 <= rr < state.height and 0 <= cc < state.width and not state.walls >> nxt & 1 and nxt not in seen:
                    seen.add(nxt)
                    frontier.append((nxt, d + 1))
        return cells

    lead = state.scores[me] - state.scores[1 - me]
    nearer = (nearest_food(state.positions[1 - me]) - nearest_food(state.positions[me])) / (cells + 1)

    return (lead + 0.5 * nearer) / (food_total + 1)
