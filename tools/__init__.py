"""loopopt.tools"""
