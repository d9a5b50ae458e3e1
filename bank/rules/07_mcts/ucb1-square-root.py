# Breaks "mean reward plus c times the exploration term" (the term is c * sqrt(ln(parent_visits) / visits)): the
# square root is forgotten, c * ln(parent_visits) / visits.
# %% ucb1
def ucb1(total, visits, parent_visits, c):
    """The UCB1 score of a child: mean reward plus c times the exploration term; math.inf when unvisited."""
    if visits == 0:
        return math.inf
    return total / visits + c * (math.log(parent_visits) / visits)
