"""Train one seat of Caylus against random bots with a masked policy gradient (REINFORCE), NumPy only.

    python examples/gym_masked_reinforce.py --episodes 200

The policy is linear in the observation vector: a score per catalogue action, illegal actions
masked out before the softmax (``info["action_mask"]``), updated after each episode towards the
actions of episodes that ended well (reward minus a running baseline).  It is small on purpose: a
starting point for a real learner (sb3-contrib's MaskablePPO takes the same environment, through
``env.action_masks()``).  It prints the mean reward of the first and the last tenth of episodes.
"""
from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import provost.adapters.gym_env  # noqa: F401 - registers provost/Caylus-v0 ...


def masked_softmax(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, scores, -np.inf)
    z = np.exp(z - z[mask].max())
    return z / z.sum()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--env", default="provost/Caylus-v0")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--rate", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    env = gymnasium.make(args.env, players=args.players, opponents="random")
    rng = np.random.default_rng(args.seed)
    n_obs, n_act = env.observation_space.shape[0], env.action_space.n
    weights = np.zeros((n_act, n_obs), dtype=np.float32)
    baseline, rewards = 0.0, []
    for episode in range(args.episodes):
        obs, info = env.reset(seed=args.seed + episode)
        trajectory, done, reward = [], False, 0.0
        while not done:
            mask = info["action_mask"]
            probs = masked_softmax(weights @ obs, mask)
            action = int(rng.choice(n_act, p=probs))
            trajectory.append((obs, action, probs))
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for o, a, p in trajectory:           # grad of log softmax: onehot(a) - p, times the observation
            grad = -p
            grad[a] += 1.0
            weights += args.rate * advantage * np.outer(grad, o)
        rewards.append(reward)
    tenth = max(1, args.episodes // 10)
    print("mean reward, first %d episodes: %+.3f; last %d: %+.3f"
          % (tenth, np.mean(rewards[:tenth]), tenth, np.mean(rewards[-tenth:])))


if __name__ == "__main__":
    main()
