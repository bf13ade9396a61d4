// The renderer's value types (RenderList, RenderOptions, Image, DepthImage, RenderedFrame) live
// in ARRenderCore, below both rasterizer builds; importing ARRender brings them along.
@_exported import ARRenderCore
