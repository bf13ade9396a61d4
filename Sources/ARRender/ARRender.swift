// ARRender
