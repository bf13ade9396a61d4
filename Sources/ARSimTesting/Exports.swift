// `assertGolden` and `verifyGolden` take an ARRender `Image`; re-exported so a test target that
// depends on ARSimTesting alone can name it, read PNGs and compare images without also
// depending on ARRender or ARReplay.
@_exported import ARRender
