print("done early", flush=True)
