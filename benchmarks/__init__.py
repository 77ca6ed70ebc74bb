"""Benchmarks, run by hand (README "Benchmarks"): each prints its figures and asserts nothing."""
