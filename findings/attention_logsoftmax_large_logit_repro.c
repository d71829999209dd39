#include <stdio.h>
#include <math.h>
#include "simdax/simdax.h"
int main(void){
  float scales[] = {1, 0.5f, 3.0f, 0.1f, 1e10f, 1e-10f};
  for (int si=0; si<6; ++si) for (int lg=0; lg<2; ++lg) for (int sl=0; sl<2; ++sl) {
    int64_t sz[2]={1,3}; int64_t ssz[2]={1,1};
    simdax_tensor_desc x={SIMDAX_DTYPE_FLOAT32,2,sz,NULL}, s={SIMDAX_DTYPE_FLOAT32,2,ssz,NULL};
    float in[3]={6.5e10f,1.0f,2.0f}, out[3]={7,7,7}, slope[1]={-0.25f};
    simdax_attention_softmax_desc d={&x,NULL,sl?&s:NULL,NULL,&x,NULL,scales[si],0,(simdax_causal)(si%2 ? 0 : 1),0,lg};
    simdax_status st=simdax_attention_softmax(&d,in,NULL,sl?slope:NULL,NULL,out,NULL);
    printf("scale %g log %d slopes %d: status %d y0 %g y1 %g\n",scales[si],lg,sl,st,out[0],out[1]);
  }
}
