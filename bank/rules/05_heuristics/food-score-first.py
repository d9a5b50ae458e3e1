# Breaks "one piece of food eaten must always outweigh any difference in distances": the distance term has weight
# 1 instead of 0.4, so it ranges over (-1, 1] and being on food with the opponent cut off from food equals one food.
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
    near = closeness(me) - closeness(1 - me)
    return (diff + near) / (food_total + 1)
