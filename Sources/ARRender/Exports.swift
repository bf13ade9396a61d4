// The renderer's value types (RenderList, RenderOptions, Image, DepthImage, RenderedFrame) live
// in ARRenderCore, below both rasterizer builds; importing ARRender brings them along, and the
// located errors and file I/O of ARSupport that its PNG reader and writer report with.
@_exported import ARRenderCore
@_exported import ARSupport
