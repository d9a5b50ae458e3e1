# fix: The message gave UCB1 with ln (sqrt(ln(10)/4)) and my 1.25 matched log base 10, so I use math.log instead of math.log10.
# clear: yes

# %% ucb1
def ucb1(total, visits, parent_visits, c):
    """The UCB1 score of a child: mean reward plus c times the exploration term; math.inf when unvisited."""
    if visits == 0:
        return math.inf
    return total / visits + c * math.sqrt(math.log(parent_visits) / visits)
