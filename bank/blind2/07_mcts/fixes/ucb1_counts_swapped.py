# fix: The message said the exploration term is sqrt(ln(parent_visits) / visits) and mine swapped the counts, so I swapped them back.
# clear: yes

# %% ucb1
def ucb1(total, visits, parent_visits, c):
    """The UCB1 score of a child: mean reward plus c times the exploration term; math.inf when unvisited."""
    if visits == 0:
        return math.inf
    return total / visits + c * math.sqrt(math.log(parent_visits) / visits)
