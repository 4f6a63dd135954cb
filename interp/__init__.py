"""loopopt.interp"""
