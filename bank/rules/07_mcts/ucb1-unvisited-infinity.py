# Breaks "A child with **no** visit yet scores **infinity** (`math.inf`)": an unvisited child scores 0 (no data, so a
# mean of 0 and no exploration bonus) instead of math.inf.
# %% ucb1
def ucb1(total, visits, parent_visits, c):
    """The UCB1 score of a child: mean reward plus c times the exploration term; math.inf when unvisited."""
    if visits == 0:
        return 0
    return total / visits + c * math.sqrt(math.log(parent_visits) / visits)
