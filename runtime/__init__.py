"""loopopt.runtime"""
