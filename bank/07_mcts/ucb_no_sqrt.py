# Bug: no square root in the exploration term.
# %% ucb1
def ucb1(total, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return total / visits + c * math.log(parent_visits) / visits
