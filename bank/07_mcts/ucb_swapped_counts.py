# Bug: the exploration term takes the log of the child's visits over the parent's.
# %% ucb1
def ucb1(total, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return total / visits + c * math.sqrt(math.log(visits) / parent_visits)
