# Bug: an unvisited child scores 0 instead of infinity.
# %% ucb1
def ucb1(total, visits, parent_visits, c):
    if visits == 0:
        return 0.0
    return total / visits + c * math.sqrt(math.log(parent_visits) / visits)
