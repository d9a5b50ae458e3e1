# Breaks "the second grows for children visited rarely compared with their parent": the counts are swapped in the
# exploration term, sqrt(ln(visits) / parent_visits) instead of sqrt(ln(parent_visits) / visits).
# %% ucb1
def ucb1(total, visits, parent_visits, c):
    """The UCB1 score of a child: mean reward plus c times the exploration term; math.inf when unvisited."""
    if visits == 0:
        return math.inf
    return total / visits + c * math.sqrt(math.log(visits) / parent_visits)
