# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    root_player = game.to_move(state)
    # Each frame: [node, list of remaining actions, values collected so far]
    stack = [[state, None, []]]
    final_answer = None
    while stack:
        frame = stack[-1]
        node = frame[0]
        if frame[1] is None:
            if game.is_terminal(node):
                stack.pop()
                leaf_score = game.utility(node, root_player)
                if stack:
                    stack[-1][2].append(leaf_score)
                else:
                    final_answer = leaf_score
                continue
            frame[1] = list(game.actions(node))[::-1]
        if frame[1]:
            next_action = frame[1].pop()
            stack.append([game.result(node, next_action), None, []])
        else:
            stack.pop()
            if game.to_move(node) == root_player:
                node_score = max(frame[2])
            else:
                node_score = min(frame[2])
            if stack:
                stack[-1][2].append(node_score)
            else:
                final_answer = node_score
    return final_answer
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    root_player = game.to_move(state)

    def score_of(position):
        if game.is_terminal(position):
            return game.utility(position, root_player)
        if game.to_move(position) == root_player:
            best_so_far = -float("inf")
            for option in game.actions(position):
                candidate = score_of(game.result(position, option))
                if candidate > best_so_far:
                    best_so_far = candidate
            return best_so_far
        worst_so_far = float("inf")
        for option in game.actions(position):
            candidate = score_of(game.result(position, option))
            if candidate < worst_so_far:
                worst_so_far = candidate
        return worst_so_far

    chosen_action = None
    chosen_score = None
    for option in game.actions(state):
        candidate = score_of(game.result(state, option))
        if chosen_score is None or candidate > chosen_score:
            chosen_action = option
            chosen_score = candidate
    return chosen_action
# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    root_player = game.to_move(state)

    def score_of(position, plies_below_root):
        if game.is_terminal(position):
            speed_factor = 10 - plies_below_root
            return game.utility(position, root_player) * speed_factor
        collected_scores = []
        for option in game.actions(position):
            collected_scores.append(score_of(game.result(position, option), plies_below_root + 1))
        if game.to_move(position) == root_player:
            return max(collected_scores)
        return min(collected_scores)

    chosen_action = None
    chosen_score = None
    for option in game.actions(state):
        candidate = score_of(game.result(state, option), 1)
        if chosen_score is None or candidate > chosen_score:
            chosen_action = option
            chosen_score = candidate
    return chosen_action
