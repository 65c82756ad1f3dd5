// placeholder until the layer's first file lands
