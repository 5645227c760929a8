"""SkyRL's trainer with the PAU environment and generator: ``python -m pytest_pau.train.skyrl_main KEY=VALUE...``.

SkyRL builds environments inside Ray workers by name, so ``pau`` must be registered in
the worker that runs the experiment; this follows SkyRL's custom-environment pattern
(register inside the remote entry point, then run the base experiment), and its
custom-generator pattern (an experiment whose ``get_generator`` returns
:class:`~pytest_pau.train.skyrl_generator.PauStepGenerator`: each turn on the benchmark's
fresh prompt, one sample per turn). Needs the ``skyrl_train`` package and GPUs;
``pau train --backend skyrl`` writes the command line.
"""

from __future__ import annotations

import sys
from typing import Any


def main() -> None:  # pragma: no cover - needs skyrl_train, Ray and GPUs
    try:
        import hydra
        import ray
        from skyrl_train.entrypoints.main_base import BasePPOExp, config_dir, validate_cfg
        from skyrl_train.utils import initialize_ray
    except ImportError as exc:
        sys.exit(
            f"pytest_pau.train.skyrl_main: SkyRL's trainer is not importable ({exc}); install "
            "skyrl-train on a GPU machine (docs/training.md, 'Training at scale on SkyRL')."
        )

    class PauExp(BasePPOExp):  # type: ignore[misc]
        def get_generator(self, cfg: Any, tokenizer: Any, inference_engine_client: Any) -> Any:
            from skyrl_train.generators.base import GeneratorInterface

            from pytest_pau.train.skyrl_generator import PauStepGenerator

            class Generator(PauStepGenerator, GeneratorInterface):  # type: ignore[misc]
                pass

            return Generator(
                cfg.generator,
                cfg.environment.skyrl_gym,
                inference_engine_client,
                tokenizer,
                max_prompt_length=cfg.trainer.max_prompt_length,
            )

    @ray.remote(num_cpus=1)  # type: ignore[untyped-decorator]
    def entrypoint(cfg: Any) -> None:
        from pytest_pau.train.skyrl_env import register

        register()
        PauExp(cfg).run()

    @hydra.main(config_path=config_dir, config_name="ppo_base_config", version_base=None)  # type: ignore[untyped-decorator]
    def run(cfg: Any) -> None:
        validate_cfg(cfg)
        initialize_ray(cfg)
        ray.get(entrypoint.remote(cfg))

    run()


if __name__ == "__main__":
    main()
