"""loopopt.kernels"""
