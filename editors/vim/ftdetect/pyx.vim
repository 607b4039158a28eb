" pyx sources; Vim itself does not claim *.px (its `pyx` neighbour *.pyx is Pyrex/Cython).
autocmd BufNewFile,BufRead *.px setfiletype pyx
