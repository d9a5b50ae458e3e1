# Breaks "a child that was visited `visits` times with a total reward `total` scores total/visits + ...": the
# exploitation term is the total itself, not the mean (the division by visits is forgotten).
# %% ucb1
def ucb1(total, visits, parent_visits, c):
    """The UCB1 score of a child: mean reward plus c times the exploration term; math.inf when unvisited."""
    if visits == 0:
        return math.inf
    return total + c * math.sqrt(math.log(parent_visits) / visits)
