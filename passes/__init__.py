"""loopopt.passes"""
