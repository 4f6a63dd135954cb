"""loopopt.targets"""
