"""loopopt.lowering"""
