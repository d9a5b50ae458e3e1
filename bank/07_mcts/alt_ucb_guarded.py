# Correct: UCB1 written with the exploration term apart, and float('inf') for an unvisited child.
# %% ucb1
def ucb1(total, visits, parent_visits, c):
    if not visits:
        return float("inf")
    exploitation = total / visits
    exploration = math.sqrt(math.log(parent_visits) / visits)
    return exploitation + c * exploration
