"""loopopt.dialects"""
