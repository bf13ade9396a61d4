// ARReplay
