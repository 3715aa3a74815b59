#!/usr/bin/env python3
"""Device memory in use, read from NVML through ctypes (no Python package needed), for the
GPU scripts that time how fast VRAM comes back.

  vram-watch.py used                     bytes in use on GPU 0 now
  vram-watch.py until-below BYTES SECS   polls every 5 ms until GPU 0 uses < BYTES;
                                         prints the milliseconds it took, or 'timeout'
  vram-watch.py trace SECS               one 'ms used_bytes' line every 50 ms for SECS
"""
import ctypes
import sys
import time


class Memory(ctypes.Structure):
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


def device():
    nvml = ctypes.CDLL("libnvidia-ml.so.1")
    if nvml.nvmlInit_v2() != 0:
        sys.exit("nvmlInit failed")
    handle = ctypes.c_void_p()
    if nvml.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(handle)) != 0:
        sys.exit("no GPU 0")
    mem = Memory()

    def used():
        nvml.nvmlDeviceGetMemoryInfo(handle, ctypes.byref(mem))
        return mem.used

    return used


def main():
    used = device()
    what = sys.argv[1]
    if what == "used":
        print(used())
    elif what == "until-below":
        limit, secs = int(sys.argv[2]), float(sys.argv[3])
        start = time.monotonic()
        while time.monotonic() - start < secs:
            if used() < limit:
                print(f"{(time.monotonic() - start) * 1000:.0f}")
                return
            time.sleep(0.005)
        print("timeout")
    elif what == "trace":
        secs = float(sys.argv[2])
        start = time.monotonic()
        while time.monotonic() - start < secs:
            print(f"{(time.monotonic() - start) * 1000:.0f} {used()}", flush=True)
            time.sleep(0.05)


if __name__ == "__main__":
    main()
