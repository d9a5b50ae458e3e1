# Breaks "a position where player is nearer to the nearest food ... must be worth more": the distance term has
# its sign flipped (the opponent's closeness minus player's), so nearer to food is worth less.
# %% food_grid_evaluate
def food_grid_evaluate(state, player):
    """(state, player) -> float in (-1, 1): score difference, then who is nearer to food, for `player`."""
    me = 0 if player == "A" else 1
    width, height = state.width, state.height

    def nearest_food(start):
        # Breadth-first search around the walls; None when no food can be reached.
        seen = {start}
        frontier = [start]
        d = 0
        while frontier:
            nxt = []
            for i in frontier:
                if state.food >> i & 1:
                    return d
                r, c = divmod(i, width)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= rr < height and 0 <= cc < width:
                        j = rr * width + cc
                        if j not in seen and not state.walls >> j & 1:
                            seen.add(j)
                            nxt.append(j)
            frontier = nxt
            d += 1
        return None

    def closeness(p):
        d = nearest_food(state.positions[p])
        return 0.0 if d is None else 1 / (d + 1)

    food_total = bin(state.food).count("1") + state.scores[0] + state.scores[1]
    diff = state.scores[me] - state.scores[1 - me]
    near = 0.4 * (closeness(1 - me) - closeness(me))
    return (diff + near) / (food_total + 1)
